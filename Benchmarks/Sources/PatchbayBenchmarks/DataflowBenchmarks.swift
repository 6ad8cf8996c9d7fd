import OpenCombine
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph

/// Propagating events through the dataflow engine (workloads W2 and W3): the
/// typed API against OpenCombine 0.14.0 (the peer, which the targets are set against) and against
/// plain Swift closures (the floor), and the same chain built in the shell's graph from `map`
/// patches.
///
/// Every subscriber has the same body: it adds the value it receives into an `Int` cell through
/// a pointer (`SumCell`), and every trial checks the sums.
struct DataflowBenchmarks: BenchmarkGroup {
    let name = "Dataflow"

    /// The map stages of W2.
    static let stages = 10
    /// The subscribers of W3.
    static let subscribers = 100

    func rows(for mode: Mode) -> [BenchmarkRow] {
        let chainValues = mode == .quick ? 50_000 : 1_000_000
        let fanOutValues = mode == .quick ? 5_000 : 100_000
        let shellValues = mode == .quick ? 2_000 : 100_000
        return [
            BenchmarkRow(
                id: "D1", title: "W2 chain: Signal + 10 map + subscribe",
                ours: Self.typedChain(chainValues),
                reference: Reference(
                    kind: .peer, name: "OpenCombine 10 Map", workload: Self.openCombineChain(chainValues)),
                target: .ratioAtMost(0.5),
                secondReference: Reference(
                    kind: .floor, name: "composed closures", workload: Self.closureChain(chainValues))
            ),
            BenchmarkRow(
                id: "D2", title: "W3 fan-out: Signal + 100 subscribe",
                ours: Self.typedFanOut(fanOutValues),
                reference: Reference(
                    kind: .peer, name: "OpenCombine 100 sink", workload: Self.openCombineFanOut(fanOutValues)),
                target: .ratioAtMost(0.3),
                secondReference: Reference(
                    kind: .floor, name: "100 closures", workload: Self.closureFanOut(fanOutValues))
            ),
            BenchmarkRow(
                id: "D3", title: "W2 shell: 10 map patches, per value per stage",
                ours: Self.shellChain(shellValues),
                reference: nil,
                target: .nanosecondsBelow(1_000)
            ),
        ]
    }

    // MARK: W2, a chain of 10 maps

    /// The sum the W2 sink must hold after `values` values: Σ(v + 10) over 0..<values.
    static func chainChecksum(_ values: Int) -> Int {
        values * (values - 1) / 2 + values * stages
    }

    static func typedChain(_ values: Int) -> Workload {
        Workload(operations: values) {
            let engine = Engine()
            let signal = Signal<Int>(in: engine)
            var chain = signal.source
            for _ in 0..<stages { chain = chain.map { $0 + 1 } }
            let sink = SumCell()
            let connection = chain.subscribe { sink.add($0) }
            return Trial(expectedChecksum: chainChecksum(values)) {
                for value in 0..<values { signal.send(value) }
                withExtendedLifetime((engine, connection)) {}
                return sink.sum
            }
        }
    }

    /// W2b: ten separate `Map` subscribers, since OpenCombine fuses `.map.map` into one (slower)
    /// `Map`; `eraseToAnyPublisher()` between them costs nothing per value.
    static func openCombineChain(_ values: Int) -> Workload {
        Workload(operations: values) {
            let subject = PassthroughSubject<Int, Never>()
            var chain = subject.eraseToAnyPublisher()
            for _ in 0..<stages { chain = chain.map { $0 + 1 }.eraseToAnyPublisher() }
            let sink = SumCell()
            let cancellable = chain.sink { sink.add($0) }
            return Trial(expectedChecksum: chainChecksum(values)) {
                for value in 0..<values { subject.send(value) }
                withExtendedLifetime(cancellable) {}
                return sink.sum
            }
        }
    }

    /// W2a: closures composed at run time, each calling the next with its value plus one.
    static func closureChain(_ values: Int) -> Workload {
        Workload(operations: values) {
            let sink = SumCell()
            var chain: (Int) -> Void = { sink.add($0) }
            for _ in 0..<stages {
                let next = chain
                chain = { next($0 + 1) }
            }
            let head = opaque(chain)
            return Trial(expectedChecksum: chainChecksum(values)) {
                for value in 0..<values { head(value) }
                return sink.sum
            }
        }
    }

    // MARK: W3, one source and 100 subscribers

    /// The sum of the W3 cells after `values` values: each subscriber holds Σv over 0..<values.
    static func fanOutChecksum(_ values: Int) -> Int {
        subscribers * (values * (values - 1) / 2)
    }

    static func typedFanOut(_ values: Int) -> Workload {
        Workload(operations: values) {
            let engine = Engine()
            let signal = Signal<Int>(in: engine)
            let sinks = (0..<subscribers).map { _ in SumCell() }
            let connections = sinks.map { sink in signal.subscribe { sink.add($0) } }
            return Trial(expectedChecksum: fanOutChecksum(values)) {
                for value in 0..<values { signal.send(value) }
                withExtendedLifetime((engine, connections)) {}
                return SumCell.total(sinks)
            }
        }
    }

    static func openCombineFanOut(_ values: Int) -> Workload {
        Workload(operations: values) {
            let subject = PassthroughSubject<Int, Never>()
            let sinks = (0..<subscribers).map { _ in SumCell() }
            let cancellables = sinks.map { sink in subject.sink { sink.add($0) } }
            return Trial(expectedChecksum: fanOutChecksum(values)) {
                for value in 0..<values { subject.send(value) }
                withExtendedLifetime(cancellables) {}
                return SumCell.total(sinks)
            }
        }
    }

    /// W3a: an array of 100 closures, called in turn for every value.
    static func closureFanOut(_ values: Int) -> Workload {
        Workload(operations: values) {
            let sinks = (0..<subscribers).map { _ in SumCell() }
            let closures: [(Int) -> Void] = opaque(sinks.map { sink in { sink.add($0) } })
            return Trial(expectedChecksum: fanOutChecksum(values)) {
                for value in 0..<values {
                    for closure in closures { closure(value) }
                }
                return SumCell.total(sinks)
            }
        }
    }

    // MARK: W2 in the shell

    /// The W2 chain as the shell builds it: `signal s`, ten `patch mI map fn="$ + 1"` wired in a
    /// row, and a probe on the last one as the sink. One operation is one value through one stage.
    static func shellChain(_ values: Int) -> Workload {
        Workload(operations: values * stages) {
            let graph = Graph()
            try graph.createSignal("s")
            var previous = PortAddress(node: "s", port: "out")
            for stage in 0..<stages {
                let name = "m\(stage)"
                try graph.createPatch(name, type: "map", arguments: ["fn": .string("$ + 1")])
                try graph.wire(from: previous, to: PortAddress(node: name, port: "in"))
                previous = PortAddress(node: name, port: "out")
            }
            try graph.probe(previous.node, port: previous.port, future: true)
            _ = graph.takeEvents()
            return Trial(expectedChecksum: chainChecksum(values)) {
                var sum = 0
                for value in 0..<values {
                    try graph.send("s", .int(value))
                    if value & 1023 == 1023 { sum &+= try probedSum(graph.takeEvents()) }
                }
                return sum &+ (try probedSum(graph.takeEvents()))
            }
        }
    }

    /// The sum of the integers that probes reported; any other event is a failure.
    static func probedSum(_ events: [GraphEvent]) throws -> Int {
        var sum = 0
        for event in events {
            guard case .probe(_, .int(let value), _) = event else {
                throw CorrectnessFailure(description: "unexpected event \(event)")
            }
            sum &+= value
        }
        return sum
    }
}
