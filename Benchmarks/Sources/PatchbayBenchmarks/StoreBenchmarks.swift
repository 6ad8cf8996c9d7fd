import OpenCombine
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph

/// Store dispatch (workload W1): 1,000,000 `Increment(by: 1)` actions to a
/// `{count}` state with one subscriber. The typed `Store` against a plain loop calling the same
/// reducer and a closure (the floor) and an OpenCombine store (`PassthroughSubject` + `scan` +
/// `sink`, the peer); and the shell's store with the interpreted reducer `state.count += action.by`,
/// without and with a middleware.
struct StoreBenchmarks: BenchmarkGroup {
    let name = "Stores"

    func rows(for mode: Mode) -> [BenchmarkRow] {
        let dispatches = mode == .quick ? 50_000 : 1_000_000
        let shellDispatches = mode == .quick ? 5_000 : 200_000
        return [
            BenchmarkRow(
                id: "S1", title: "W1 typed Store: dispatch + 1 subscriber",
                ours: Self.typedStore(dispatches),
                reference: Reference(kind: .floor, name: "reducer fn + closure", workload: Self.floor(dispatches)),
                target: .ratioAtMost(4),
                secondReference: Reference(kind: .peer, name: "OpenCombine scan", workload: Self.openCombine(dispatches))
            ),
            BenchmarkRow(
                id: "S2", title: "W1 shell store: interpreted state.count += action.by",
                ours: Self.shellStore(shellDispatches),
                reference: nil,
                target: .nanosecondsBelow(1_000)
            ),
            // What a middleware costs: it runs before the reducer, interpreted as the reducer is.
            BenchmarkRow(
                id: "S3", title: "W1 shell store + middleware action.by = action.by + 0",
                ours: Self.shellStore(shellDispatches, middleware: "action.by = action.by + 0"),
                reference: Reference(kind: .baseline, name: "no middleware", workload: Self.shellStore(shellDispatches)),
                target: .ratioAtMost(2.5)
            ),
        ]
    }

    struct Counter {
        var count = 0
    }

    struct Increment {
        var by: Int
    }

    /// The sum a subscriber adding every count must hold: n(n+1)/2.
    static func checksum(_ n: Int) -> Int { n * (n + 1) / 2 }

    static func typedStore(_ n: Int) -> Workload {
        Workload(operations: n) {
            let store = Store(initialState: Counter(), reducer: Reducer<Counter, Increment> { state, action in
                state.count += action.by
            })
            let sink = SumCell()
            let connection = store.subscribe { sink.add($0.count) }
            return Trial(expectedChecksum: checksum(n)) {
                for _ in 0..<n { store.dispatch(Increment(by: 1)) }
                withExtendedLifetime(connection) {}
                return sink.sum
            }
        }
    }

    /// W1a: `state = reduce(state, action)` through a function that is not inlined, then one
    /// subscriber closure called indirectly.
    static func floor(_ n: Int) -> Workload {
        Workload(operations: n) {
            let sink = SumCell()
            let subscribers: [(Counter) -> Void] = opaque([{ sink.add($0.count) }])
            return Trial(expectedChecksum: checksum(n)) {
                var state = Counter()
                for _ in 0..<n {
                    state = reduce(state, Increment(by: 1))
                    for subscriber in subscribers { subscriber(state) }
                }
                return sink.sum
            }
        }
    }

    @inline(never)
    static func reduce(_ state: Counter, _ action: Increment) -> Counter {
        Counter(count: state.count + action.by)
    }

    /// W1c2: actions through a `PassthroughSubject`, reduced by `scan`, received by `sink`.
    static func openCombine(_ n: Int) -> Workload {
        Workload(operations: n) {
            let subject = PassthroughSubject<Increment, Never>()
            let sink = SumCell()
            let cancellable = subject.scan(Counter()) { Counter(count: $0.count + $1.by) }.sink { sink.add($0.count) }
            return Trial(expectedChecksum: checksum(n)) {
                for _ in 0..<n { subject.send(Increment(by: 1)) }
                withExtendedLifetime(cancellable) {}
                return sink.sum
            }
        }
    }

    /// The shell's store node with an interpreted reducer; the subscriber is a probe on its state.
    /// - Parameter middleware: the statements of a middleware for `Increment`, if any.
    static func shellStore(_ n: Int, middleware: String? = nil) -> Workload {
        Workload(operations: n) {
            let graph = Graph()
            try! graph.createStore("app", state: ["count": 0])
            try! graph.addReducer(to: "app", on: "Increment", body: try! StatementBlock("state.count += action.by"))
            if let middleware {
                try! graph.addMiddleware(to: "app", on: "Increment", body: try! StatementBlock.parse(middleware, from: 0, context: .middleware))
            }
            try! graph.probe("app", port: "state", future: true)
            let action: Value = ["type": "Increment", "by": 1]
            return Trial(expectedChecksum: checksum(n)) {
                var sum = 0
                for index in 0..<n {
                    try! graph.dispatch("app", action)
                    if index & 1023 == 1023 || index == n - 1 {
                        for case .probe(_, .object(let state), _) in graph.takeEvents() {
                            if case .int(let count)? = state["count"] { sum &+= count }
                        }
                    }
                }
                return sum
            }
        }
    }
}
