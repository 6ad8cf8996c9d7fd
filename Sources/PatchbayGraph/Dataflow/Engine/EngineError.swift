@_spi(Shell) import PatchbayCore

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
    /// A `tick` that would take the clock past its latest time; nothing changed.
    case clockLimit(now: Int, step: Int, maximum: Int)
    /// A `tick` that would fire more timers than one tick may. `stoppedAt` is `nil` when it was
    /// refused before anything happened, or the time it stopped at when timers set during the
    /// tick brought it past the limit.
    case tooManyFirings(step: Int, limit: Int, stoppedAt: Int?)
    /// Ctrl-C stopped a `tick` between two timers (see `Interruption`). What fired before stays:
    /// `Graph.rollBack(to:)` takes it back.
    case interrupted

    public var description: String {
        switch self {
        case .noTransaction(let command): "'\(command)' without 'begin': no transaction is open"
        case .busy(let command): "'\(command)' is not allowed while values are being delivered"
        case .runaway(let limit, let ports):
            "did not settle after \(limit) follow-up transactions (writes from callbacks); ports involved: "
                + ports.prefix(10).joined(separator: ", ") + (ports.count > 10 ? ", ..." : "")
        case .nodeFailed(let node, let message): "\(node) failed: \(message)"
        case .closed(let name): "\(name) is closed: later sends are refused"
        case .clockLimit(let now, let step, let maximum):
            "tick \(step) would take the virtual clock past its latest time, \(maximum) ms (it is at \(now) ms); "
                + (now == maximum ? "it cannot go further" : "tick by at most \(maximum - now)")
        case .tooManyFirings(let step, let limit, nil):
            "tick \(step) would fire more than \(limit) timers, the most one tick may fire; nothing changed: tick in smaller steps"
        case .tooManyFirings(let step, let limit, let stoppedAt?):
            "tick \(step) stopped at \(stoppedAt) ms after firing \(limit) timers (timers set while it ran), the most one tick may fire; tick again to go on"
        case .interrupted: InterruptionError().description
        }
    }
}
