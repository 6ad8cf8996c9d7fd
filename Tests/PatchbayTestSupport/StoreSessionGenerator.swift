/// Random store sessions for the model-based oracle (the live shell, `inspect` of its recording
/// and `replay --verify` of it must agree): stores, reducers (one that fails for some payloads,
/// one that waits on the clock), middleware (changing, dropping, dispatching, failing), dispatches
/// (failing ones too), dispatches from wires (several into one store, removed by input or by
/// source), time travel, branches, history rewrites, DevTools files, a selected store (`use`) that
/// commands leaving out their STORE go to, and recordings that start and stop at random points.
///
/// Commands name files under the placeholder `$DIR`, which the runner replaces with a directory
/// of its own. The generator keeps only what it needs to pick plausible arguments (which
/// stores exist, whether a recording is on); commands that fail are part of the mix on purpose.
public struct StoreSessionGenerator {
    /// The placeholder for the session's directory in generated commands.
    public static let directory = "$DIR"

    private var random: SplitMix64
    private var stores: [String] = []
    private var recording = false
    private var recordings = 0
    private var exported = false
    /// The store `use` selected last (the command may have failed: the guess is good enough).
    private var selected: String?
    /// Whether a route was registered.
    private var routeAdded = false

    public init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    /// A session of `length` commands (plus the `record` commands around them).
    public mutating func session(length: Int) -> [String] {
        var commands: [String] = []
        if random.chance(40) { commands.append(startRecording()) }
        while commands.count < length {
            if !recording, random.chance(8) {
                commands.append(startRecording())
            } else if recording, random.chance(3) {
                recording = false
                commands.append("record stop")
            } else {
                commands.append(nextCommand())
            }
        }
        return commands
    }

    private mutating func startRecording() -> String {
        recording = true
        recordings += 1
        return "record \(Self.directory)/recording\(recordings).jsonl"
    }

    private static let storeNames = ["app", "cart", "log"]

    private mutating func anyStore() -> String {
        stores.isEmpty || random.chance(3) ? random.pick(Self.storeNames) : random.pick(stores)
    }

    /// `STORE ` or, now and then, nothing (a command may leave out the only store, or the
    /// selected one).
    private mutating func storeArgument() -> String {
        if stores.count == 1, random.chance(15) { return "" }
        if selected != nil, random.chance(40) { return "" }
        return anyStore() + " "
    }

    private mutating func nextCommand() -> String {
        if stores.isEmpty || random.chance(6) { return createStore() }
        let store = anyStore()
        switch random.int(0...99) {
        case 0..<14: return reducer(for: store)
        case 14..<36: return dispatch(to: store)
        case 36..<40: return route()
        case 40..<47: return wire(from: store)
        case 47..<53: return random.chance(50) ? "tick" : "tick \(random.int(1...5))"
        case 53..<59: return "skip \(storeArgument())\(random.int(0...5))"
        case 59..<64: return "unskip \(storeArgument())\(random.int(0...5))"
        case 64..<74: return jump()
        case 74..<78: return "checkout \(storeArgument())\(random.pick(["main", "b1", "b2", "nope"]))"
        case 78..<80: return "branch \(storeArgument())".trimmingTrailingSpace
        // Without --force, a store with other branches refuses; both forms are tried.
        case 80..<83: return "history commit \(storeArgument())\(force())".trimmingTrailingSpace
        case 83..<85: return "history revert \(storeArgument())\(force())".trimmingTrailingSpace
        case 85..<89: return "history sweep \(storeArgument())".trimmingTrailingSpace
        // Few exports: writing the file is the slowest command by far.
        case 89..<90:
            exported = true
            return "export devtools \(store) devtools.json --force"
        case 90..<93:
            guard exported else { return dispatch(to: store) }
            let into = random.chance(50) ? random.pick(Self.storeNames) : "imported"
            if !stores.contains(into) { stores.append(into) }
            return "import devtools devtools.json \(into)\(force())"
        // A selection made before a recording starts must be in it, or its replay goes elsewhere.
        case 93..<96:
            if random.chance(20) {
                selected = nil
                return "use"
            }
            selected = random.chance(10) ? "nope" : anyStore()
            return "use \(selected!)"
        // A transaction open when a recording starts must make `record` refuse (issue 28).
        case 96..<98: return random.chance(60) ? "begin" : random.pick(["commit", "abort"])
        // The router's history goes into a recording's opening; a screen left open makes
        // `record` refuse (issue 28).
        case 98..<100: return route()
        default:
            return dispatch(to: store)
        }
    }

    /// A route registered, a URL routed (a screen pushed), or the top screen closed.
    private mutating func route() -> String {
        if !routeAdded || random.chance(5) {
            routeAdded = true
            return "route add /p/:id view=P"
        }
        switch random.int(0...3) {
        case 0: return "route /p/\(random.int(1...3))?tab=\(random.int(1...2))"
        case 1, 2: return "route /p/\(random.int(1...3))"
        default: return "back"
        }
    }

    /// ` --force` half the time.
    private mutating func force() -> String {
        random.chance(50) ? " --force" : ""
    }

    private mutating func createStore() -> String {
        let name = random.pick(Self.storeNames)
        if !stores.contains(name) { stores.append(name) }
        let count = random.int(0...3)
        // Two keys that differ only in Unicode normalisation ("é" composed and decomposed): two
        // members, in the live session, the recording, inspect and replay alike (issue 28).
        return "store \(name) = {count: \(count), items: [], n: 0, later: 0, echoes: 0, \"\u{E9}\": 0, \"e\u{301}\": 0}"
    }

    private mutating func reducer(for store: String) -> String {
        switch random.int(0...13) {
        case 0: return "reducer \(store) on Inc : state.count += action.by"
        case 1: return "reducer \(store) on Push : state.items = append(state.items, action.v)"
        // Fails for {d: 0}: the whole action is kept, marked failed.
        case 2: return "reducer \(store) on Div : state.count = state.count / action.d"
        case 3: return "reducer \(store) on Later after \(random.int(1...4)) : state.later += 1"
        case 4: return "reducer \(store) on * when action.type != 'Inc' : state.n += 1"
        case 5: return "reducer \(store) on Set at sub : state.v = action.v"
        case 6: return "reducer \(store) on Echo : state.echoes += 1; state[\"e\u{301}\"] += 1"
        // Middleware: one that changes or drops the action, one that dispatches more (queued),
        // one that fails for some payloads (the dispatch fails, nothing changes); now and then one goes.
        case 8: return "middleware \(store) on Inc : if action.by < 0 { drop }; action.by = action.by + state.count % 2"
        case 9: return "middleware \(store) on Push : dispatch Echo {from: action.v}"
        case 10: return "middleware \(store) : if action.type == 'Div' && action.d == 2 { action.d = action.missing }"
        case 11: return "middleware rm m\(random.int(1...3))"
        // A reducer removed or replaced, maybe with its `after` timers pending: a recording
        // started then must refuse (issue 28), or its replay would not run what they run.
        case 12: return "reducer rm r\(random.int(1...4))"
        case 13: return "reducer r\(random.int(1...4)) : state.later += 2"
        default: return "reducer \(store) on Inc when action.by > 2 : state.items = append(state.items, action.by)"
        }
    }

    private mutating func dispatch(to store: String) -> String {
        let target = storeArgument()
        switch random.int(0...9) {
        case 0, 1: return "dispatch \(target)Inc {by: \(random.int(-3...5))}"
        case 2: return "dispatch \(target)Inc {by: 'x'}"
        case 3: return "dispatch \(target)Push {v: \(random.int(0...9))}"
        case 4: return "dispatch \(target)Div {d: \(random.pick([0, 2]))}"
        case 5: return "dispatch \(target)Later"
        case 6: return "dispatch \(target)Set {v: \(random.int(0...9))}"
        case 7: return "dispatch \(target)Echo"
        case 8: return "dispatch \(target)Other"
        default: return "dispatch \(store) Inc"
        }
    }

    /// A store's output wired into a store's `dispatch`, with a guard (a subscriber that
    /// dispatches); into its own `dispatch` only through a delay edge or as a refused cycle.
    /// A `dispatch` takes a wire from each source, so wires from several stores pile up there,
    /// and go one by one (`unwire SRC.PORT -> DST.PORT`) or, when only one is left, by input
    /// (an error naming them when there are several).
    private mutating func wire(from store: String) -> String {
        let other = anyStore()
        switch random.int(0...4) {
        case 0: return "wire \(store).action -> \(other).dispatch when $.type == 'Inc' : {type: 'Echo', from: $.type}"
        // A delay edge passes the action on unchanged, one tick later (into its own store too).
        case 1: return "wire \(store).action ~> \(other).dispatch"
        // Into its own store, each Push changes the state again: a runaway loop, rolled back
        // after 100 rounds (slow, so rare).
        case 2:
            let target = other != store || random.chance(15) ? other : stores.first { $0 != store } ?? other
            return "wire \(store).state -> \(target).dispatch when $.count > 2 : {type: 'Push', v: $.count}"
        case 3: return "wire \(store).action -> \(store).dispatch when $.type == 'Inc' : {type: 'Echo'}"
        // Both forms, picked without a draw of its own, so that the other commands of every
        // sequence stay as they were.
        default: return other == store ? "unwire \(other).dispatch" : "unwire \(store).action -> \(other).dispatch"
        }
    }

    private mutating func jump() -> String {
        let target = storeArgument()
        switch random.int(0...3) {
        case 0: return "jump \(target)\(random.int(0...5))"
        case 1: return "jump \(target)+\(random.int(1...3))"
        case 2: return "jump \(target)-\(random.int(1...3))"
        default: return "jump \(target)end"
        }
    }
}

extension String {
    /// The text without the space a left-out last argument leaves.
    fileprivate var trimmingTrailingSpace: String {
        var text = self
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }
}
