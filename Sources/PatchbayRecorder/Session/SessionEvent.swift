public import PatchbayCore

/// One line of a session file after the header: something the session did, in the order it
/// happened. Each is written as one JSON object with `seq` (1, 2, ...) and `kind`; see
/// `line(seq:)` for the exact form of each.
public enum SessionEvent: Sendable, Equatable {
    /// A command as typed: `{"seq":1,"kind":"command","text":"store app = {count: 0}"}`.
    case command(String)
    /// A command that rebuilds what existed when the recording started (or when a replay
    /// recorded in it started over): `{"seq":1,"kind":"setup","text":"reset"}`. A replay runs
    /// it without comparing what it does with the recording, then applies the store histories
    /// recorded after it as `inspect` does; `inspect` applies them too.
    case setup(String)
    /// A store was created with its initial state:
    /// `{"seq":2,"kind":"store","store":"app","state":{"count":0}}`.
    case store(name: String, state: Value)
    /// A store reduced an action: `{"seq":4,"kind":"action","store":"app","index":1,...}`.
    case action(SessionAction)
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
    /// Action `index` was skipped (or, with `false`, taken back):
    /// `{"seq":10,"kind":"skip","store":"app","index":2,"skipped":true}`.
    case skip(store: String, index: Int, skipped: Bool)
    /// The store's history was replaced (commit, revert, import) by one that starts at
    /// `state`: `{"seq":11,"kind":"reset","store":"app","state":{...}}`.
    case reset(store: String, state: Value)
    /// The store switched to another timeline of its history, at its last state:
    /// `{"seq":12,"kind":"checkout","store":"app","branch":"main"}`.
    case checkout(store: String, branch: String)
    /// The store's skipped actions were dropped: `{"seq":13,"kind":"sweep","store":"app"}`.
    case sweep(store: String)

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
        }
    }
}
