@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
import Testing

// The typed dataflow API (PatchbayHost.docc/Dataflow.md): `Engine`, `Signal`, `EventSource`,
// `Variable`, `Derived`, `StateNode`, `Connection`, `Connector`. Each suite documents one of the
// dataflow rules, numbered as in DataflowGraphTests.swift.

/// Collects what callbacks see, in order.
private final class Recorder<Element> {
    var items: [Element] = []
    func append(_ item: Element) { items.append(item) }
}

@Suite("Typed dataflow, rule 1: replay")
struct DataflowTypedReplayTests {
    @Test func subscribingToAVariableDeliversItsCurrentValueOnceAtOnce() {
        let engine = Engine()
        let count = Variable(5, in: engine)
        let seen = Recorder<Int>()
        let connection = count.subscribe { seen.append($0) }
        #expect(seen.items == [5])
        count.value = 6
        #expect(seen.items == [5, 6])
        connection.disconnect()
    }

    @Test func futureValuesSkipTheReplay() {
        let engine = Engine()
        let count = Variable(5, in: engine)
        let seen = Recorder<Int>()
        let connection = count.subscribeToFutureValues { seen.append($0) }
        #expect(seen.items.isEmpty)
        count.value = 6
        #expect(seen.items == [6])
        connection.disconnect()
    }

    @Test func aDerivedValueReplaysToo() {
        let engine = Engine()
        let count = Variable(2, in: engine)
        let label = count.map { "count is \($0)" }
        let seen = Recorder<String>()
        let now = label.subscribe { seen.append($0) }
        let later = label.subscribeToFutureValues { seen.append("future: " + $0) }
        #expect(seen.items == ["count is 2"])
        count.value = 3
        #expect(seen.items == ["count is 2", "count is 3", "future: count is 3"])
        now.disconnect()
        later.disconnect()
    }

    @Test func nilIsAValueAndIsReplayed() {
        let engine = Engine()
        let selection = Variable<Int?>(nil, in: engine)
        let seen = Recorder<Int?>()
        let connection = selection.subscribe { seen.append($0) }
        #expect(seen.items == [nil])
        selection.value = nil  // equal: nothing
        selection.value = 4
        selection.value = nil
        #expect(seen.items == [nil, 4, nil])
        connection.disconnect()
    }

    @Test func eventPortsNeverReplay() {
        let engine = Engine()
        let taps = Signal<Int>(in: engine)
        taps.send(1)
        let seen = Recorder<Int>()
        let connection = taps.subscribe { seen.append($0) }
        let doubled = taps.map { $0 * 2 }
        let mapped = doubled.subscribe { seen.append($0) }
        #expect(seen.items.isEmpty)
        taps.send(2)
        #expect(seen.items == [2, 4])
        connection.disconnect()
        mapped.disconnect()
    }
}

@Suite("Typed dataflow, rule 3: equal values stop, events never dedupe, touch forces")
struct DataflowTypedEqualityTests {
    @Test func settingAnEqualValueDoesNothing() {
        let engine = Engine()
        let name = Variable("Max", in: engine)
        let seen = Recorder<String>()
        let connection = name.subscribeToFutureValues { seen.append($0) }
        name.value = "Max"
        #expect(seen.items.isEmpty)
        name.value = "Ada"
        name.value = "Ada"
        #expect(seen.items == ["Ada"])
        connection.disconnect()
    }

    @Test func aDerivedValueRecomputedToAnEqualValueStopsPropagation() {
        let engine = Engine()
        let number = Variable(1, in: engine)
        let parity = number.map { $0 % 2 }
        let evaluations = Recorder<Int>()
        let downstream = Derived<String>.combining([parity]) { values in
            evaluations.append(values[0])
            return values[0] == 0 ? "even" : "odd"
        }
        let seen = Recorder<Int>()
        let connection = parity.subscribeToFutureValues { seen.append($0) }
        #expect(evaluations.items == [1])  // computed once when created
        number.value = 3  // parity is 1 again: it stops there
        #expect(evaluations.items == [1])
        #expect(seen.items.isEmpty)
        number.value = 4
        #expect(evaluations.items == [1, 0])
        #expect(seen.items == [0])
        #expect(downstream.value == "even")
        connection.disconnect()
    }

    @Test func eventsAreNeverDeduplicated() {
        let engine = Engine()
        let clicks = Signal<String>(in: engine)
        let seen = Recorder<String>()
        let connection = clicks.subscribe { seen.append($0) }
        clicks.send("ok")
        clicks.send("ok")
        clicks.send("ok")
        #expect(seen.items == ["ok", "ok", "ok"])
        connection.disconnect()
    }

    @Test func touchRedeliversTheCurrentValueAndRecomputesDownstream() {
        let engine = Engine()
        let count = Variable(3, in: engine)
        let evaluations = Recorder<Int>()
        let doubled = Derived<Int>.combining([count.derived]) { values in
            evaluations.append(values[0])
            return values[0] * 2
        }
        let seen = Recorder<Int>()
        let connection = count.subscribeToFutureValues { seen.append($0) }
        count.touch()
        #expect(seen.items == [3])
        #expect(evaluations.items == [3, 3])  // at creation, then for the touch
        #expect(count.value == 3)
        #expect(doubled.value == 6)
        connection.disconnect()
    }
}

@Suite("Typed dataflow, rule 4: order")
struct DataflowTypedOrderTests {
    @Test func listenersAreCalledInAttachOrder() {
        let engine = Engine()
        let value = Variable(0, in: engine)
        let seen = Recorder<String>()
        let first = value.subscribeToFutureValues { seen.append("first \($0)") }
        let second = value.subscribeToFutureValues { seen.append("second \($0)") }
        let third = value.subscribeToFutureValues { seen.append("third \($0)") }
        value.value = 1
        #expect(seen.items == ["first 1", "second 1", "third 1"])

        // Detaching and attaching again moves a listener to the end.
        first.disconnect()
        let again = value.subscribeToFutureValues { seen.append("first again \($0)") }
        seen.items.removeAll()
        value.value = 2
        #expect(seen.items == ["second 2", "third 2", "first again 2"])
        for connection in [second, third, again] { connection.disconnect() }
    }

    @Test func nodesAreEvaluatedInRankOrderWhateverTheirDepth() {
        // x feeds `top` through a long branch (three combined nodes) and a short one (one). `top`
        // has the highest rank, so it runs once, after both branches settled.
        let engine = Engine()
        let x = Variable(1, in: engine)
        let order = Recorder<String>()
        let long1 = Derived<Int>.combining([x.derived]) { order.append("long1"); return $0[0] + 1 }
        let long2 = Derived<Int>.combining([long1]) { order.append("long2"); return $0[0] + 1 }
        let long3 = Derived<Int>.combining([long2]) { order.append("long3"); return $0[0] + 1 }
        let short = Derived<Int>.combining([x.derived]) { order.append("short"); return $0[0] * 10 }
        let top = Derived<String>.combining(long3, short) { (a: Int, b: Int) -> String in
            order.append("top \(a) \(b)")
            return "\(a)/\(b)"
        }
        order.items.removeAll()
        x.value = 2
        #expect(order.items == ["long1", "short", "long2", "long3", "top 5 20"])
        #expect(top.value == "5/20")
    }

    @Test func nodesOfEqualRankRunInCreationOrder() {
        // `older` was created first, so it runs first, although `younger`'s input is written first.
        let engine = Engine()
        let p = Variable(0, in: engine)
        let q = Variable(0, in: engine)
        let order = Recorder<String>()
        let older = Derived<Int>.combining([p.derived]) { order.append("older"); return $0[0] }
        let younger = Derived<Int>.combining([q.derived]) { order.append("younger"); return $0[0] }
        order.items.removeAll()
        engine.transaction {
            q.value = 1
            p.value = 1
        }
        #expect(order.items == ["older", "younger"])
        #expect(older.value == 1 && younger.value == 1)
    }
}

@Suite("Typed dataflow, rule 5: glitch-free waves")
struct DataflowTypedGlitchTests {
    @Test func aDiamondIsEvaluatedOnceAndNeverSeesAMixOfOldAndNew() {
        // b = a + 1, c = a * 2, d = b + c
        let engine = Engine()
        let a = Variable(1, in: engine)
        let b = a.map { $0 + 1 }
        let c = a.map { $0 * 2 }
        let inputsSeen = Recorder<String>()
        let d = Derived<Int>.combining(b, c) { (b: Int, c: Int) -> Int in
            inputsSeen.append("\(b)+\(c)")
            return b + c
        }
        let values = Recorder<Int>()
        let connection = d.subscribe { values.append($0) }
        a.value = 2
        // Once at creation, once for the change: never 3+2 or 2+4.
        #expect(inputsSeen.items == ["2+2", "3+4"])
        #expect(values.items == [4, 7])
        a.value = 10
        #expect(inputsSeen.items == ["2+2", "3+4", "11+20"])
        #expect(values.items == [4, 7, 31])
        connection.disconnect()
    }

    @Test func aListenerReadsTheSettledStateOfTheWholeWave() {
        let engine = Engine()
        let a = Variable(1, in: engine)
        let b = a.map { $0 + 1 }
        let d = Derived<Int>.combining(b, a.derived) { $0 + $1 }
        let seen = Recorder<String>()
        // Subscribed to `a`, which ranks before `d`; still, `d` is already settled when it runs.
        let connection = a.subscribeToFutureValues { _ in seen.append("a=\(a.value) b=\(b.value) d=\(d.value)") }
        a.value = 5
        #expect(seen.items == ["a=5 b=6 d=11"])
        connection.disconnect()
    }
}

@Suite("Typed dataflow, rule 6: transactions")
struct DataflowTypedTransactionTests {
    @Test func anExplicitTransactionCoalescesThreeSetsIntoOneNotification() {
        let engine = Engine()
        let count = Variable(0, in: engine)
        let doubled = count.map { $0 * 2 }
        let seen = Recorder<String>()
        let a = count.subscribeToFutureValues { seen.append("count \($0)") }
        let b = doubled.subscribeToFutureValues { seen.append("doubled \($0)") }
        engine.transaction {
            count.value = 1
            count.value = 2
            count.value = 3
            // Reading a written variable returns what was written; nothing was delivered yet.
            seen.append("inside: count \(count.value), doubled \(doubled.value)")
        }
        #expect(seen.items == ["inside: count 3, doubled 0", "count 3", "doubled 6"])
        a.disconnect()
        b.disconnect()
    }

    @Test func aNetZeroTransactionNotifiesNothing() {
        let engine = Engine()
        let count = Variable(0, in: engine)
        let evaluations = Recorder<Int>()
        let doubled = Derived<Int>.combining([count.derived]) { evaluations.append($0[0]); return $0[0] * 2 }
        let seen = Recorder<Int>()
        let connection = count.subscribeToFutureValues { seen.append($0) }
        engine.transaction {
            count.value = 5
            count.value = 0
        }
        #expect(seen.items.isEmpty)
        #expect(evaluations.items == [0])  // only at creation
        #expect(doubled.value == 0)
        connection.disconnect()
    }

    @Test func beginAndCommitNestAndOnlyTheOutermostCommitApplies() throws {
        let engine = Engine()
        let count = Variable(0, in: engine)
        let seen = Recorder<Int>()
        let connection = count.subscribeToFutureValues { seen.append($0) }
        try engine.begin()
        try engine.begin()
        #expect(engine.transactionDepth == 2)
        count.value = 1
        #expect(try engine.commit() == false)
        #expect(seen.items.isEmpty)
        #expect(engine.isInTransaction)
        count.value = 2
        #expect(try engine.commit() == true)
        #expect(!engine.isInTransaction)
        #expect(seen.items == [2])
        connection.disconnect()
    }

    @Test func abortDropsTheWrites() throws {
        let engine = Engine()
        let count = Variable(7, in: engine)
        let seen = Recorder<Int>()
        let connection = count.subscribeToFutureValues { seen.append($0) }
        try engine.begin()
        count.value = 8
        #expect(count.value == 8)
        try engine.abort()
        #expect(count.value == 7)
        #expect(seen.items.isEmpty)
        #expect(!engine.isInTransaction)
        count.value = 9  // the engine goes on as usual
        #expect(seen.items == [9])
        connection.disconnect()
    }

    @Test func commitOrAbortWithoutBeginIsAnError() {
        let engine = Engine()
        #expect(throws: EngineError.noTransaction("commit")) { try engine.commit() }
        #expect(throws: EngineError.noTransaction("abort")) { try engine.abort() }
    }

    @Test func eventsInATransactionArriveInSendOrderOneWaveEach() {
        struct Tally: Equatable {
            var total = 0
            var history: [Int] = []
        }
        let engine = Engine()
        let numbers = Signal<Int>(in: engine)
        let tally = StateNode(default: Tally(), in: engine)
        let pipe = tally.pipe(from: numbers.source) { number, state in
            state.total += number
            state.history.append(state.total)
        }
        let events = Recorder<Int>()
        let states = Recorder<Tally>()
        let a = numbers.subscribe { events.append($0) }
        let b = tally.subscribe { states.append($0) }
        engine.transaction {
            numbers.send(1)
            numbers.send(2)
            numbers.send(3)
        }
        // Each event's wave saw the state the previous one left; the state's subscriber heard once.
        #expect(events.items == [1, 2, 3])
        #expect(states.items == [Tally(), Tally(total: 6, history: [1, 3, 6])])
        for connection in [pipe, a, b] { connection.disconnect() }
    }
}

@Suite("Typed dataflow, rule 7: reentrancy")
struct DataflowTypedReentrancyTests {
    @Test func aCallbackThatSendsRecursivelyIsNeverNested() {
        let engine = Engine()
        let countdown = Signal<Int>(in: engine)
        var log = ""
        var isRunning = false
        var overlaps = 0
        let connection = countdown.subscribe { [unowned countdown] n in
            if isRunning { overlaps += 1 }
            isRunning = true
            log += "(\(n)"
            if n > 0 { countdown.send(n - 1) }
            log += ")"
            isRunning = false
        }
        countdown.send(3)
        // Each entry is complete before the next begins: never "(3(2(1(0))))".
        #expect(log == "(3)(2)(1)(0)")
        #expect(overlaps == 0)
        connection.disconnect()
    }

    @Test func writesFromCallbacksRunAfterTheTransactionFirstInFirstOut() {
        let engine = Engine()
        let trigger = Variable(0, in: engine)
        let target = Variable("", in: engine)
        let seen = Recorder<String>()
        let first = trigger.subscribeToFutureValues { _ in
            target.value = "from first"
            seen.append("first ran; target is still '\(target.value)'")
        }
        let second = trigger.subscribeToFutureValues { _ in target.value = "from second" }
        let watcher = target.subscribeToFutureValues { seen.append("target = \($0)") }
        trigger.value = 1
        #expect(seen.items == ["first ran; target is still ''", "target = from first", "target = from second"])
        #expect(target.value == "from second")
        for connection in [first, second, watcher] { connection.disconnect() }
    }

    @Test func aRunawayLoopStopsAfterOneHundredFollowUpsWithOneError() {
        let engine = Engine()
        let counter = Variable(0, in: engine, label: "counter")
        let connection = counter.subscribeToFutureValues { [unowned counter] n in counter.value = n + 1 }
        counter.value = 1
        // The first write and 100 follow-ups ran; the 101st was dropped.
        #expect(counter.value == 101)
        #expect(engine.takeErrors() == [.runaway(limit: 100, ports: ["counter"])])
        #expect(EngineError.runaway(limit: 100, ports: ["counter"]).description
            == "did not settle after 100 follow-up transactions (writes from callbacks); ports involved: counter")

        // The engine stays usable.
        connection.disconnect()
        counter.value = 5
        #expect(counter.value == 5)
        #expect(engine.takeErrors().isEmpty)
    }

    @Test func errorsGoToOnErrorWhenItIsSet() {
        let engine = Engine()
        let reported = Recorder<EngineError>()
        engine.onError = { reported.append($0) }
        let signal = Signal<Int>(in: engine, label: "ticks")
        signal.close()
        #expect(signal.isClosed)
        let seen = Recorder<Int>()
        let connection = signal.subscribe { seen.append($0) }
        signal.send(1)
        #expect(seen.items.isEmpty)
        #expect(reported.items == [.closed("ticks")])
        #expect(engine.takeErrors().isEmpty)
        connection.disconnect()
    }
}

@Suite("Typed dataflow, rule 8: samples")
struct DataflowTypedSampleTests {
    @Test func readingAnotherValueInsideAComputationNeverTriggersIt() {
        let engine = Engine()
        let price = Variable(10, in: engine)
        let rate = Variable(2, in: engine)
        let total = price.map { $0 * rate.value }  // `rate` is sampled
        let seen = Recorder<Int>()
        let connection = total.subscribeToFutureValues { seen.append($0) }
        rate.value = 3
        #expect(seen.items.isEmpty)
        #expect(total.value == 20)
        price.value = 11
        #expect(seen.items == [33])
        connection.disconnect()
    }

    @Test func aPipeReducesFromTheStateBeforeTheWave() {
        let engine = Engine()
        let numbers = Signal<Int>(in: engine)
        let node = StateNode(default: [Int](), in: engine)
        let seenBefore = Recorder<[Int]>()
        let pipe = node.pipe(from: numbers.source) { number, state in
            seenBefore.append(state)
            state.append(number)
        }
        numbers.send(1)
        numbers.send(2)
        #expect(seenBefore.items == [[], [1]])
        #expect(node.state == [1, 2])
        pipe.disconnect()
        numbers.send(3)  // the pipe is gone
        #expect(node.state == [1, 2])
    }

    @Test func aPipeFilterSeesTheEventAndTheState() {
        let engine = Engine()
        let numbers = Signal<Int>(in: engine)
        let node = StateNode(default: 0, in: engine)
        let pipe = node.pipe(from: numbers.source, when: { number, state in number > state }) { number, state in
            state = number
        }
        for number in [3, 1, 5, 4] { numbers.send(number) }
        #expect(node.state == 5)
        node.update { $0 += 1 }
        #expect(node.state == 6)
        node.set(0)
        #expect(node.state == 0)
        pipe.disconnect()
    }
}

@Suite("Typed dataflow, rule 11: connections")
struct DataflowTypedLifetimeTests {
    @Test func aConnectionEndsWhenDisconnectedAndDisconnectingTwiceIsHarmless() {
        let engine = Engine()
        let value = Variable(0, in: engine)
        let seen = Recorder<Int>()
        let connection = value.subscribeToFutureValues { seen.append($0) }
        #expect(connection.isConnected)
        connection.disconnect()
        connection.disconnect()
        #expect(!connection.isConnected)
        value.value = 1
        #expect(seen.items.isEmpty)
    }

    @Test func aConnectionEndsWhenReleased() {
        let engine = Engine()
        let value = Variable(0, in: engine)
        let seen = Recorder<Int>()
        var connection: Connection? = value.subscribeToFutureValues { seen.append($0) }
        value.value = 1
        #expect(connection != nil)
        connection = nil
        value.value = 2
        #expect(seen.items == [1])
    }

    @Test func aConnectorHoldsManyConnectionsAndEndsThemTogether() {
        let engine = Engine()
        let value = Variable(0, in: engine)
        let seen = Recorder<String>()
        let connector = Connector()
        value.subscribeToFutureValues { seen.append("a\($0)") }.put(into: connector)
        connector.add(value.subscribeToFutureValues { seen.append("b\($0)") })
        #expect(connector.count == 2)
        value.value = 1
        connector.disconnect()
        #expect(connector.count == 0)
        value.value = 2
        #expect(seen.items == ["a1", "b1"])
    }

    @Test func aListenerDisconnectedMidDeliveryGetsNothingMore() {
        let engine = Engine()
        let value = Variable(0, in: engine)
        let seen = Recorder<String>()
        var second: Connection?
        let first = value.subscribeToFutureValues { v in
            seen.append("first \(v)")
            second?.disconnect()
        }
        second = value.subscribeToFutureValues { seen.append("second \($0)") }
        let third = value.subscribeToFutureValues { seen.append("third \($0)") }
        value.value = 1
        #expect(seen.items == ["first 1", "third 1"])
        first.disconnect()
        third.disconnect()
    }

    @Test func eventSourcesFilterAndMap() {
        let engine = Engine()
        let numbers = Signal<Int>(in: engine)
        let seen = Recorder<String>()
        let connection = numbers.filter { $0 % 2 == 0 }.map { "even \($0)" }.subscribe { seen.append($0) }
        for n in 1...4 { numbers.send(n) }
        #expect(seen.items == ["even 2", "even 4"])
        connection.disconnect()
    }
}

@Suite("Typed dataflow: the virtual clock")
struct DataflowTypedClockTests {
    @Test func tickAdvancesTheVirtualClock() throws {
        let engine = Engine()
        #expect(engine.clock.now == 0)
        #expect(try engine.tick() == 1)  // no timer: one millisecond
        #expect(try engine.tick(by: 250) == 251)
        #expect(engine.clock.now == 251)
        #expect(engine.clock.pendingCount == 0)
        #expect(engine.clock.nextDue == nil)
    }
}
