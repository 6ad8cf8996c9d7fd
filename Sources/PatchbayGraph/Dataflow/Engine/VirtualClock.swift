@_spi(Shell) import PatchbayCore

/// The engine's clock: virtual milliseconds that move only on `tick`. Nothing reads the wall
/// clock, so a session replays exactly.
///
/// ## Limits
/// The clock never passes `maximumTime`, and no timer, delay or `after` reducer waits longer than
/// `maximumDelay`; both are half of `Int.max` (about 146 million years), so that a due time,
/// `now + delay`, can never overflow. A `tick` fires at most `maximumFirings` timers.
public struct VirtualClock: Sendable {
    /// The latest time the clock can reach, in virtual milliseconds.
    public static let maximumTime = Int.max / 2
    /// The longest wait a timer, a delay or an `after` reducer can be given.
    public static let maximumDelay = Int.max / 2
    /// The most timers one `tick` may fire: a longer tick is refused before anything happens
    /// (so that a 1 ms timer and `tick 1000000000` do not run a billion transactions).
    public static let maximumFirings = 100_000

    /// The current time in virtual milliseconds since the engine started.
    public internal(set) var now = 0
    var timers: [Timer] = []
    /// The sequence number of the latest timer set: a timer set after a moment has a larger one.
    private(set) var nextSequence = 0

    struct Timer {
        var due: Int
        var sequence: Int
        var owner: ObjectIdentifier?
        /// For a timer that sets itself again when it fires (a `timer` patch), its period:
        /// how `tick` counts the firings ahead.
        var period: Int?
        /// What it does, for a recording's opening; `nil` for a timer no recording holds.
        var purpose: PendingTimer.Purpose?
        /// The definition whose code `action` runs (a store's `after` reducer), so that a
        /// recording can tell a timer that a definition made since would not make again.
        var source: AnyObject?
        var action: () -> Void
    }

    /// The time of the earliest pending timer.
    public var nextDue: Int? { timers.map(\.due).min() }

    /// How many timers are pending.
    public var pendingCount: Int { timers.count }

    mutating func add(at due: Int, owner: ObjectIdentifier?, period: Int?, purpose: PendingTimer.Purpose?, source: AnyObject? = nil,
                      _ action: @escaping () -> Void) {
        nextSequence += 1
        timers.append(Timer(due: due, sequence: nextSequence, owner: owner, period: period, purpose: purpose, source: source, action: action))
    }

    /// The pending timers in the order they fire.
    var inFiringOrder: [Timer] {
        timers.sorted { ($0.due, $0.sequence) < ($1.due, $1.sequence) }
    }

    mutating func removeTimers(of owner: ObjectIdentifier) {
        timers.removeAll { $0.owner == owner }
    }

    /// Removes the timers set after the one numbered `sequence` (see `nextSequence`), but those
    /// of the nodes `isKept` names: what a command that failed set goes with it.
    mutating func removeTimers(setAfter sequence: Int, keeping isKept: (ObjectIdentifier) -> Bool) {
        timers.removeAll { timer in timer.sequence > sequence && !(timer.owner.map(isKept) ?? false) }
    }

    /// Puts back the clock `saved` was, for timers of nodes that still exist (`isAlive`); the
    /// timers of nodes made since (`isNewer`) stay as they are.
    mutating func putBack(_ saved: VirtualClock, isAlive: (ObjectIdentifier) -> Bool, isNewer: (ObjectIdentifier) -> Bool) {
        let newer = timers.filter { $0.owner.map(isNewer) ?? false }
        let sequence = nextSequence
        self = saved
        timers.removeAll { timer in timer.owner.map { !isAlive($0) } ?? false }
        timers += newer
        nextSequence = Swift.max(nextSequence, sequence)
    }

    /// Removes and returns the earliest timer due at or before `limit` (ties in the order they
    /// were set).
    mutating func popDue(notAfter limit: Int) -> Timer? {
        guard let index = timers.indices.filter({ timers[$0].due <= limit })
            .min(by: { (timers[$0].due, timers[$0].sequence) < (timers[$1].due, timers[$1].sequence) })
        else { return nil }
        return timers.remove(at: index)
    }

    /// How many times the pending timers fire up to `limit`, counting each periodic timer's later
    /// firings; stops counting past `bound`.
    func firings(notAfter limit: Int, upTo bound: Int) -> Int {
        var count = 0
        for timer in timers where timer.due <= limit {
            count += timer.period.map { 1 + (limit - timer.due) / $0 } ?? 1
            if count > bound { return count }
        }
        return count
    }
}

/// A `VirtualClock` cannot be Sendable with closures inside; it never leaves its engine.
extension VirtualClock.Timer: @unchecked Sendable {}

extension Engine {
    /// Runs `action` as its own transaction when the clock reaches `now + delay`; the delay is
    /// taken within `0...VirtualClock.maximumDelay` (callers refuse longer ones with an error).
    /// - Parameters:
    ///   - owner: the node the timer belongs to; removing the node cancels it.
    ///   - period: set when `action` sets the same timer again, `period` later.
    ///   - purpose: what the timer does, for a recording that starts while it is pending.
    func setTimer(after delay: Int, owner: NodeCore?, period: Int? = nil, purpose: PendingTimer.Purpose?, _ action: @escaping () -> Void) {
        let wait = Swift.min(Swift.max(0, delay), VirtualClock.maximumDelay)
        setTimer(at: clock.now + wait, owner: owner, period: period, purpose: purpose, action)
    }

    /// Runs `action` as its own transaction when the clock reaches `due` (at once, on the next
    /// tick, when `due` has passed).
    func setTimer(at due: Int, owner: NodeCore?, period: Int? = nil, purpose: PendingTimer.Purpose?, source: AnyObject? = nil,
                  _ action: @escaping () -> Void) {
        clock.add(at: due, owner: owner.map(ObjectIdentifier.init), period: period, purpose: purpose, source: source, action)
    }

    func cancelTimers(of owner: NodeCore) {
        clock.removeTimers(of: ObjectIdentifier(owner))
    }

    /// Advances the clock by `milliseconds`, or when `nil` by one step: to the next timer, or 1 ms
    /// when none is set. First every delay edge carries its value across (one transaction), then
    /// the due timers fire in time order, one transaction each.
    ///
    /// A tick that would take the clock past `VirtualClock.maximumTime`, or fire more than
    /// `VirtualClock.maximumFirings` of the timers pending, throws and changes nothing. Timers set
    /// while the tick runs (a delay fed by a timer) count too: if they bring the firings past the
    /// limit, the tick stops there, at the time of the last timer fired, and throws.
    ///
    /// Ctrl-C (`Interruption`) stops the tick before the next timer, with `.interrupted`; what
    /// fired until then stays (`Graph.rollBack(to:)` takes it back).
    ///
    /// A timer whose transaction does not settle (its follow-ups run away, reported as
    /// `EngineError.runaway`, as a dispatch's would be) ends the tick at once, at that timer's
    /// time: the tick failed as a whole, as such a dispatch does, and the caller takes it back
    /// (`Graph.rollBack(to:)`). Going on would fire the timers the loop set, each of which could
    /// loop and set more.
    /// - Returns: the new time (the time of the timer that ran away, when one did).
    @discardableResult
    public func tick(by milliseconds: Int? = nil) throws(EngineError) -> Int {
        guard phase == .idle else { throw .busy("tick") }
        let now = clock.now
        let step = Swift.max(0, milliseconds ?? clock.nextDue.map { Swift.max(1, $0 - now) } ?? 1)
        guard step <= VirtualClock.maximumTime - now else {
            throw .clockLimit(now: now, step: step, maximum: VirtualClock.maximumTime)
        }
        let target = now + step
        let limit = VirtualClock.maximumFirings
        let ahead = clock.firings(notAfter: target, upTo: limit)
        guard ahead <= limit else { throw .tooManyFirings(step: step, limit: limit, stoppedAt: nil) }
        if !tickHandlers.isEmpty {
            runTransaction {
                for handler in tickHandlers.values.sorted(by: { $0.order < $1.order }) { handler.cross() }
            }
        }
        // Read once: checked before every timer, a relaxed atomic load.
        let interruption = Interruption.current
        var fired = 0
        let runaways = runawayCount
        while let timer = clock.popDue(notAfter: target) {
            if interruption?.isRequested == true {
                clock.timers.append(timer)
                throw .interrupted
            }
            fired += 1
            clock.now = Swift.max(clock.now, timer.due)
            guard fired <= limit else {
                clock.timers.append(timer)
                throw .tooManyFirings(step: step, limit: limit, stoppedAt: clock.now)
            }
            // A timer changes its owner's state before the owner sends anything (a count).
            if let owner = timer.owner { nodes[owner]?.willChange() }
            timer.action()
            if runawayCount != runaways { return clock.now }
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
