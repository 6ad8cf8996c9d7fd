/// The engine's clock: virtual milliseconds that move only on `tick`. Nothing reads the wall
/// clock, so a session replays exactly.
public struct VirtualClock: Sendable {
    /// The current time in virtual milliseconds since the engine started.
    public internal(set) var now = 0
    var timers: [Timer] = []
    private var nextSequence = 0

    struct Timer {
        var due: Int
        var sequence: Int
        var owner: ObjectIdentifier?
        var action: () -> Void
    }

    /// The time of the earliest pending timer.
    public var nextDue: Int? { timers.map(\.due).min() }

    /// How many timers are pending.
    public var pendingCount: Int { timers.count }

    mutating func add(at due: Int, owner: ObjectIdentifier?, _ action: @escaping () -> Void) {
        nextSequence += 1
        timers.append(Timer(due: due, sequence: nextSequence, owner: owner, action: action))
    }

    mutating func removeTimers(of owner: ObjectIdentifier) {
        timers.removeAll { $0.owner == owner }
    }

    /// Removes and returns the earliest timer due at or before `limit` (ties in the order they
    /// were set).
    mutating func popDue(notAfter limit: Int) -> Timer? {
        guard let index = timers.indices.filter({ timers[$0].due <= limit })
            .min(by: { (timers[$0].due, timers[$0].sequence) < (timers[$1].due, timers[$1].sequence) })
        else { return nil }
        return timers.remove(at: index)
    }
}

/// A `VirtualClock` cannot be Sendable with closures inside; it never leaves its engine.
extension VirtualClock.Timer: @unchecked Sendable {}

extension Engine {
    /// Runs `action` as its own transaction when the clock reaches `now + delay`.
    /// - Parameter owner: the node the timer belongs to; removing the node cancels it.
    func setTimer(after delay: Int, owner: NodeCore?, _ action: @escaping () -> Void) {
        clock.add(at: clock.now + Swift.max(0, delay), owner: owner.map(ObjectIdentifier.init), action)
    }

    func cancelTimers(of owner: NodeCore) {
        clock.removeTimers(of: ObjectIdentifier(owner))
    }

    /// Advances the clock by `milliseconds`, or when `nil` by one step: to the next timer, or 1 ms
    /// when none is set. First every delay edge carries its value across (one transaction), then
    /// the due timers fire in time order, one transaction each.
    /// - Returns: the new time.
    @discardableResult
    public func tick(by milliseconds: Int? = nil) throws(EngineError) -> Int {
        guard phase == .idle else { throw .busy("tick") }
        let step = milliseconds ?? clock.nextDue.map { Swift.max(1, $0 - clock.now) } ?? 1
        let target = clock.now + Swift.max(0, step)
        if !tickHandlers.isEmpty {
            runTransaction {
                for handler in tickHandlers.values.sorted(by: { $0.order < $1.order }) { handler.cross() }
            }
        }
        while let timer = clock.popDue(notAfter: target) {
            clock.now = Swift.max(clock.now, timer.due)
            timer.action()
        }
        clock.now = target
        return target
    }
}

/// Something that acts at the start of every tick: a delay edge.
struct TickHandler {
    var order: Int
    var cross: () -> Void
}
