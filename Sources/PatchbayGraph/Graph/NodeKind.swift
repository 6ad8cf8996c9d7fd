@_spi(Shell) import PatchbayCore

/// What a node of a graph is.
@_spi(Shell)
public enum NodeKind: Sendable, Equatable, CustomStringConvertible {
    case variable
    case derived
    case signal
    case knot
    case patch(type: String)
    case store
    case router

    public var description: String {
        switch self {
        case .variable: "var"
        case .derived: "derive"
        case .signal: "signal"
        case .knot: "knot"
        case .patch(let type): "patch \(type)"
        case .store: "store"
        case .router: "router"
        }
    }
}
