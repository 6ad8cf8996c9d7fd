@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph

/// `var NAME = EXPR`, `derive NAME = EXPR` and `knot NAME = EXPR`: the new node and what it holds
/// (a derived node may hold nothing yet; a knot's value is its `state` in JSON).
struct NodeMade: CommandReport {
    var name: String
    var value: Value?
    var isKnot = false

    func lines(in style: OutputStyle) -> [String] { ["\(name) = \(value.map(style.value) ?? "(empty)")"] }
    var json: Value { ["node": .string(name), isKnot ? "state" : "value": value ?? .null] }
}

/// `signal NAME`: the new signal.
struct SignalMade: CommandReport {
    var name: String

    func lines(in style: OutputStyle) -> [String] { ["\(name): signal (send) -> (out)"] }
    var json: Value { ["node": .string(name)] }
}

/// `patch NAME = TYPE(...)`: the new patch node, as `nodes` lists it.
struct PatchMade: CommandReport {
    var summary: NodeSummary

    func lines(in style: OutputStyle) -> [String] { ["\(summary.name): \(summary.details(in: style))"] }
    var json: Value { summary.json }
}

/// `patch type NAME (...) -> (...) { ... }`: the new patch type's signature.
struct PatchTypeDefined: CommandReport {
    var type: PatchType

    func lines(in style: OutputStyle) -> [String] { ["patch type \(type.ports)"] }
    var json: Value { ["type": .string(type.name)] }
}

/// `wire SRC.PORT -> DST.PORT`: the wire made, and the one it replaced on a wired input.
struct WireMade: CommandReport {
    /// The input, as the command named it.
    var target: String
    var wire: String
    var replaced: String?

    func lines(in style: OutputStyle) -> [String] {
        [replaced.map { "rewired \(target): \($0) replaced by \(wire)" } ?? "wired \(wire)"]
    }

    var json: Value { ["wire": .string(wire), "replaced": replaced.map(Value.string) ?? .null] }
}

/// `unwire [SRC.PORT ->] DST.PORT`: the wire removed, shown by its input when the command named only that.
struct WireRemoved: CommandReport {
    /// The input, as the command named it.
    var input: String
    var wire: String
    /// Whether the command named the wire's source too.
    var namedSource: Bool

    func lines(in style: OutputStyle) -> [String] { ["unwired " + (namedSource ? wire : input)] }
    var json: Value { ["input": .string(input), "wire": .string(wire)] }
}

/// `unbind A B`: the bindings ended.
struct BindingsEnded: CommandReport {
    var bindings: [String]

    func lines(in style: OutputStyle) -> [String] { bindings.map { "unbound \($0)" } }
    var json: Value { ["bindings": .array(bindings.map(Value.string))] }
}

/// `probe NODE[.PORT]`: the ports now probed (shown by their values as they come, so no line).
struct ProbesAdded: CommandReport {
    var ports: [PortAddress]

    func lines(in style: OutputStyle) -> [String] { [] }
    var json: Value { ["probes": .array(ports.map { .string($0.description) })] }
}

/// `unprobe [NODE[.PORT]]`: how many probes went (no line).
struct ProbesRemoved: CommandReport {
    var count: Int

    func lines(in style: OutputStyle) -> [String] { [] }
    var json: Value { ["removed": .int(count)] }
}

/// `begin`: the transaction depth now (a line only when nested).
struct TransactionBegun: CommandReport {
    var depth: Int

    func lines(in style: OutputStyle) -> [String] { depth > 1 ? ["begin (nested, depth \(depth))"] : [] }
    var json: Value { ["depth": .int(depth)] }
}

/// `commit`: whether the writes were applied (only the outermost `commit` applies them), the
/// depth left and the transaction's id.
struct TransactionCommitted: CommandReport {
    var applied: Bool
    var depth: Int
    var transaction: Int

    func lines(in style: OutputStyle) -> [String] { applied ? [] : ["commit (still inside a transaction, depth \(depth))"] }
    var json: Value { ["applied": .bool(applied), "depth": .int(depth), "txn": .int(transaction)] }
}

/// `abort`: the transaction's writes are dropped (`null` in JSON).
struct TransactionAborted: CommandReport {
    func lines(in style: OutputStyle) -> [String] { ["aborted: the transaction's writes are dropped"] }
    var json: Value { .null }
}

/// `tick MS` (the clock's time) and `clock` (with its pending timers).
struct ClockReading: CommandReport {
    /// The timers still to fire, as `clock` shows them.
    struct Timers {
        var count: Int
        /// When the first of them fires; `nil` when none is pending.
        var nextDue: Int?
    }

    var now: Int
    /// `nil` for `tick`, which shows only the time.
    var timers: Timers?

    func lines(in style: OutputStyle) -> [String] {
        guard let timers else { return ["clock \(now) ms"] }
        let pending = timers.nextDue.map { "\(counted(timers.count, "timer")) pending, next at \($0) ms" } ?? "no timers pending"
        return ["clock \(now) ms, \(pending)"]
    }

    var json: Value {
        guard let timers else { return ["now": .int(now)] }
        return ["now": .int(now), "pending": .int(timers.count), "next": timers.nextDue.map(Value.int) ?? .null]
    }
}

/// `tap VIEW X Y`: the tap patches it fired.
struct TapFired: CommandReport {
    var view: String
    var x: Int
    var y: Int
    var fired: [String]

    func lines(in style: OutputStyle) -> [String] {
        [fired.isEmpty ? "tap at \(x),\(y) missed \(view) (or no tap patch is wired to it)"
            : "tap at \(x),\(y) fired \(fired.joined(separator: ", "))"]
    }

    var json: Value { ["fired": .array(fired.map(Value.string))] }
}

/// `connector NAME` (opened) and `connector end` (closed).
struct ConnectorSwitched: CommandReport {
    var name: String
    var isOpen: Bool

    func lines(in style: OutputStyle) -> [String] {
        [isOpen ? "connector \(name) open: wires and probes made now join it until 'connector end'" : "connector \(name) closed"]
    }

    var json: Value { ["connector": .string(name), "open": .bool(isOpen)] }
}

/// `connector list`: each connector with its wires and probes.
struct ConnectorListing: CommandReport {
    var connectors: [Graph.ConnectorSummary]

    func lines(in style: OutputStyle) -> [String] {
        connectors.flatMap { connector in
            [connector.name + (connector.isOpen ? "  (open)" : "")]
                + connector.wires.map { "  wire \($0)" } + connector.probes.map { "  probe \($0)" }
        }
    }

    var json: Value { .array(connectors.map(\.json)) }
}

/// `connector NAME add WIRE...`: the wires the connector took.
struct ConnectorWiresAdded: CommandReport {
    var name: String
    var wires: [String]

    func lines(in style: OutputStyle) -> [String] { wires.map { "connector \(name): wire \($0)" } }
    var json: Value { ["connector": .string(name), "wires": .array(wires.map(Value.string))] }
}

/// `connector NAME disconnect`: the wires and probes it ended.
struct ConnectorDisconnected: CommandReport {
    var ended: Graph.ConnectorSummary

    func lines(in style: OutputStyle) -> [String] {
        let nothing = ended.wires.isEmpty && ended.probes.isEmpty ? " (nothing left to end)" : ""
        return ["connector \(ended.name) disconnected: \(counted(ended.wires.count, "wire")), \(counted(ended.probes.count, "probe"))" + nothing]
    }

    var json: Value { ended.json }
}

extension Graph.ConnectorSummary {
    var json: Value {
        ["connector": .string(name), "wires": .array(wires.map(Value.string)), "probes": .array(probes.map(Value.string)),
         "open": .bool(isOpen)]
    }
}
