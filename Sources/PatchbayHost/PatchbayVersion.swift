/// The version `patchbay --version` prints.
enum PatchbayVersion {
    static let current = "0.1.0"
}
