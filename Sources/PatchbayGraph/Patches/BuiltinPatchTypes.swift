@_spi(Shell) import PatchbayCore

extension PatchType {
    /// The built-in patch types, in the order `patch types` lists them.
    static let builtins: [PatchType] = [
        .expr, .map, .filter, .merge, .combine, .counter, .accumulate, .distinct, .sample, .gate, .delay, .timer,
        .log, .view, .tap,
    ]
}
