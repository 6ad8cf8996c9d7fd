@_spi(Shell) public import PatchbayCore

/// One line of a session file after the header: something the session did, in the order it
/// happened. Each is written as one JSON object with `seq` (1, 2, ...), `kind`, and the fields
/// of its kind in a fixed order: `SessionEvent.Kind` describes each kind once, and writing,
/// reading and checking a line all follow that description (see `SessionEvent+Format.swift`).
@_spi(Shell)
public enum SessionEvent: Sendable, Equatable {
    /// A command as typed: `{"seq":1,"kind":"command","text":"store app = {count: 0}"}`.
    case command(String)
    /// A command that rebuilds a definition (a reducer, a patch) when a recording starts in the
    /// middle of a session: `{"seq":3,"kind":"setup","text":"reducer s on Add : ..."}`. A
    /// replay runs it without comparing its effects; `inspect` ignores it. Readers older than
    /// this kind skip it as unknown.
    case setup(String)
    /// A store was created with its initial state:
    /// `{"seq":2,"kind":"store","store":"app","state":{"count":0}}`. `hosted` (written
    /// `"hosted":true`, and only then) marks a store the recording shell hosted (an app's
    /// `HostedStore`, whose reducer is the app's Swift code): only a shell that hosts it
    /// replays its actions. A line without it (every older file) is a store of the shell's own.
    case store(name: String, state: Value, hosted: Bool = false)
    /// A store reduced an action: `{"seq":4,"kind":"action","store":"app","index":1,
    /// "action":{"type":"Increment","by":2},"patch":[{"op":"replace","path":"/count","value":2}],
    /// "hash":"..."}`, followed when they apply by `"failed"` (the step's `failure`), `"cause"` and
    /// `"reducer"` (its `delayedReducer`). The step's changes are the line's `patch`; a line
    /// without one (an app's recording that keeps actions and checkpoints only) is an
    /// `unrecorded` step. `hash` is the digest of the state after the step, when the line gives one.
    case action(StoreStep<JSONPatch.Operation>, hash: StateDigest?)
    /// The full state of a store after action `index`, so that reading need not start from the
    /// beginning: `{"seq":5,"kind":"checkpoint","store":"app","index":1000,"state":{...}}`.
    case checkpoint(store: String, index: Int, state: Value)
    /// A value published on a port: `{"seq":6,"kind":"publish","port":"x.value","value":3}`.
    case publish(port: String, value: Value)
    /// A URL was routed: `{"seq":7,"kind":"route","url":"/message/Max",...}`.
    case route(SessionRoute)
    /// A command failed: `{"seq":8,"kind":"error","text":"dispatch nope","message":"..."}`.
    case error(command: String, message: String)
    /// Time travel made state `index` of the store's history current; an action after it
    /// starts a branch: `{"seq":9,"kind":"jump","store":"app","index":3}`.
    case jump(store: String, index: Int)
    /// Action `index` was skipped (or, with `false`, taken back), and the steps after it that
    /// this recomputed, each with its new patch:
    /// `{"seq":10,"kind":"skip","store":"app","index":2,"skipped":true,"recomputed":[...]}`.
    /// A line without `recomputed` (an older file) reads as recomputing nothing.
    case skip(store: String, index: Int, skipped: Bool, recomputed: [RecomputedStep])
    /// The store's history was replaced (commit, revert, import) by one that starts at
    /// `state`: `{"seq":11,"kind":"reset","store":"app","state":{...}}`.
    case reset(store: String, state: Value)
    /// The store switched to another timeline of its history, at its last state:
    /// `{"seq":12,"kind":"checkout","store":"app","branch":"main"}`.
    case checkout(store: String, branch: String)
    /// The store's skipped actions were dropped: `{"seq":13,"kind":"sweep","store":"app"}`.
    case sweep(store: String)
    /// Every action of the store's current timeline ran again through its reducers as they are
    /// now (`history recompute`), each step with its new patch:
    /// `{"seq":14,"kind":"recompute","store":"app","recomputed":[...]}`.
    case recompute(store: String, recomputed: [RecomputedStep])
    /// A timer that was pending when the recording started, which a replay sets again after
    /// the opening made its node. It fires a store's `after` reducer:
    /// `{"seq":15,"kind":"timer","node":"app","due":40,"fires":"reducer","value":{"type":"Later"},"reducer":"r2","from":3}`;
    /// sends a `delay` patch's value (`"fires":"delay","value":5`); or ticks a `timer` patch
    /// that has ticked `value` times (`"fires":"timer","value":4`).
    case timer(PendingTimer)

    /// The `kind` written for the event.
    public var kind: String {
        switch self {
        case .command: "command"
        case .setup: "setup"
        case .store: "store"
        case .action: "action"
        case .checkpoint: "checkpoint"
        case .publish: "publish"
        case .route: "route"
        case .error: "error"
        case .jump: "jump"
        case .skip: "skip"
        case .reset: "reset"
        case .checkout: "checkout"
        case .sweep: "sweep"
        case .recompute: "recompute"
        case .timer: "timer"
        }
    }
}
