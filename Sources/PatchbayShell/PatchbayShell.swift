public enum PatchbayShell {}
