@_spi(Shell) public import PatchbayCore

/// A node driven by its state (Knot's `Knotable`): it starts from a default state, which events
/// reduce through pipes, and publishes every new state.
///
/// ```swift
/// struct Title: Equatable { var text = "-" }
/// let node = StateNode(default: Title(), in: engine)
/// let numbers = Signal<Int>(in: engine)
/// let pipe = node.pipe(from: numbers.source) { number, state in state.text = "\(number)" }
/// numbers.send(7)        // node.state.text == "7"
/// ```
@_spi(Shell)
public final class StateNode<State> {
    @usableFromInline let core: SourceNode<State>

    @usableFromInline
    init(core: SourceNode<State>) {
        self.core = core
    }

    /// A state node of a type without equality: every update counts as a change.
    @inlinable
    public convenience init(default state: State, in engine: Engine, label: String = "knot") {
        self.init(core: SourceNode(engine: engine, label: label, port: "state", remembers: true, initial: state, isEqual: nil))
    }

    /// The current state.
    public var state: State { core.currentValue! }

    /// Replaces the state (Knot's `sink`).
    @inlinable
    public func set(_ state: State) {
        core.write(state)
    }

    /// Changes the state in place.
    @inlinable
    public func update(_ change: (inout State) -> Void) {
        var next = state
        change(&next)
        core.write(next)
    }

    /// The state as a read-only value.
    public var derived: Derived<State> { Derived(port: core.output) }

    /// Calls `callback` with the current state now, then with every change.
    public func subscribe(_ callback: @escaping (State) -> Void) -> Connection {
        core.output.subscribe(future: false, callback)
    }

    /// Reduces the state with every event of `source` that `when` accepts (Knot's `pipe(to:)` and
    /// `filter(with:)`). The reducer sees the state as it was before the event's wave, so a pipe
    /// reading its own node is not a cycle. The pipe ends when the connection does.
    public func pipe<Event>(
        from source: EventSource<Event>, when isIncluded: ((Event, State) -> Bool)? = nil,
        _ reduce: @escaping (Event, inout State) -> Void
    ) -> Connection {
        let pipe = Pipe(target: core, isIncluded: isIncluded, reduce: reduce)
        core.follow(rank: source.port.owner.rank)
        source.port.attach(pipe)
        return Connection { [weak port = source.port, pipe] in port?.detach(pipe) }
    }

    final class Pipe<Event>: Receiver {
        unowned let target: SourceNode<State>
        let isIncluded: ((Event, State) -> Bool)?
        let reduce: (Event, inout State) -> Void

        init(target: SourceNode<State>, isIncluded: ((Event, State) -> Bool)?, reduce: @escaping (Event, inout State) -> Void) {
            self.target = target
            self.isIncluded = isIncluded
            self.reduce = reduce
        }

        var node: NodeCore { target }

        func receive(_ event: Event, _ delivery: Delivery) {
            guard var state = target.output.value else { return }
            if let isIncluded, !isIncluded(event, state) { return }
            reduce(event, &state)
            target.output.emit(state, .change)
        }
    }
}

extension StateNode where State: Equatable {
    /// A state node whose equal updates do nothing.
    @inlinable
    public convenience init(default state: State, in engine: Engine, label: String = "knot") {
        self.init(core: SourceNode(engine: engine, label: label, port: "state", remembers: true, initial: state, isEqual: ==))
    }
}
