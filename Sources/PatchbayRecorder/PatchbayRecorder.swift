public enum PatchbayRecorder {}
