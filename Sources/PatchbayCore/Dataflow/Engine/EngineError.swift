/// An error of the dataflow engine.
public enum EngineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `commit` or `abort` without `begin`.
    case noTransaction(String)
    /// A transaction command while the engine is delivering.
    case busy(String)
    /// A chain of writes from callbacks did not settle.
    case runaway(limit: Int, ports: [String])
    /// A node's computation failed; it keeps its last value.
    case nodeFailed(node: String, message: String)
    /// A send on a closed signal.
    case closed(String)

    public var description: String {
        switch self {
        case .noTransaction(let command): "'\(command)' without 'begin': no transaction is open"
        case .busy(let command): "'\(command)' is not allowed while values are being delivered"
        case .runaway(let limit, let ports):
            "did not settle after \(limit) follow-up transactions (writes from callbacks); ports involved: "
                + ports.prefix(10).joined(separator: ", ") + (ports.count > 10 ? ", ..." : "")
        case .nodeFailed(let node, let message): "\(node) failed: \(message)"
        case .closed(let name): "\(name) is closed: later sends are refused"
        }
    }
}
