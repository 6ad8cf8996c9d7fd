@_spi(Shell) @testable import PatchbayShell
@_spi(Shell) import PatchbayCore
import Testing

// User integers that reach the virtual clock or a view's geometry: each too-large one is a
// one-line error that changes nothing, never an overflow trap or a hang.
// `DataflowSession` is in DataflowShellTests.swift.

@Suite("Shell: limits of the virtual clock")
struct ClockLimitShellTests {
    static let latest = "4611686018427387903"

    @Test func aTickPastTheClocksLatestTimeIsRefusedAndTheClockStays() {
        let session = DataflowSession()
        #expect(session.error("tick 9223372036854775807") == "error: tick 9223372036854775807 would take the virtual clock past "
            + "its latest time, \(Self.latest) ms (it is at 0 ms); tick by at most \(Self.latest)")
        #expect(session.run("clock\ntick 1") == ["clock 0 ms, no timers pending", "clock 1 ms"])
        #expect(session.error("tick \(Self.latest)").hasPrefix("error: tick \(Self.latest) would take the virtual clock past"))
        #expect(session.run("tick 4611686018427387902\nclock") == ["clock \(Self.latest) ms", "clock \(Self.latest) ms, no timers pending"])
        #expect(session.error("tick").hasSuffix("(it is at \(Self.latest) ms); it cannot go further"))
    }

    @Test func aNegativeTickIsAnErrorAtTheNumber() throws {
        let session = DataflowSession()
        session.run("tick 5")
        try session.expectError("tick -1", "the clock only moves forward: give milliseconds of 0 or more; usage: tick [MS] (see 'help tick')", at: 5..<7)
        try session.expectClock(now: 5, pending: 0)
    }

    @Test func aTimerPeriodPastTheLongestWaitIsRefusedAfterTheClockMoved() {
        let session = DataflowSession()
        session.run("tick 1")
        #expect(session.error("patch t timer ms=9223372036854775807")
            == "error: timer: ms must be at most \(Self.latest), the longest wait of the virtual clock")
        #expect(session.run("nodes\ntick 5") == ["no nodes yet (create one with var, derive, signal, knot or patch)", "clock 6 ms"])
        #expect(session.run("patch t timer ms=\(Self.latest)\nclock") == [
            "t: patch timer () -> (tick)  = 0", "clock 6 ms, 1 timer pending, next at 4611686018427387909 ms",
        ])
    }

    @Test func aDelayPastTheLongestWaitIsRefusedAndTheLongestOneNeverOverflows() {
        let session = DataflowSession()
        session.run("tick 7")
        #expect(session.error("patch d delay ms=9223372036854775807")
            == "error: delay: ms must be at most \(Self.latest), the longest wait of the virtual clock")
        #expect(session.run("patch d delay ms=\(Self.latest)\nset d.in = 1\ntick 3\nshow d.out") == [
            "d: patch delay (in) -> (out)", "clock 10 ms", "d.out  value port, empty", "  no subscribers",
        ])
    }

    @Test func anAfterReducerPastTheLongestWaitIsRefusedAndTicksGoOn() {
        let session = DataflowSession()
        session.run("store s = {n: 0}\ntick 2")
        #expect(session.error("reducer s on X after 9223372036854775807 : state.n += 1")
            == "error: after 9223372036854775807: the delay must be between 0 and \(Self.latest) ms, the longest wait of the virtual clock; "
                + "usage: reducer [ID =] STORE on TYPE [at PATH] [when EXPR] [after MS] : STATEMENTS | reducer ID : STATEMENTS | reducer list [STORE] | reducer rm ID (see 'help reducer')")
        #expect(session.run("reducer list\ndispatch X\ntick 1\ntick 1\nstate") == [
            "no reducers yet", "warning: no reducer of s handles 'X' (it has no reducers yet)", "#1 X  (no changes)",
            "clock 3 ms", "clock 4 ms", "{n: 0}",
        ])
        #expect(session.run("reducer s on X after \(Self.latest) : state.n += 1\ndispatch X\ntick 5\nstate") == [
            "r1: s on X after \(Self.latest) : state.n += 1",
            "note: s's 1 state was made by the old reducers; 'history recompute s' runs them again",
            "#2 X  (no changes)", "clock 9 ms", "{n: 0}",
        ])
    }

    @Test func aTickThatWouldFireTooManyTimersIsRefusedAndChangesNothing() {
        let session = DataflowSession()
        session.run("patch t timer ms=1\nprobe t --future")
        #expect(session.error("tick 1000000000") == "error: tick 1000000000 would fire more than 100000 timers, the most one "
            + "tick may fire; nothing changed: tick in smaller steps")
        #expect(session.run("clock\nshow t.tick") == [
            "clock 0 ms, 1 timer pending, next at 1 ms", "t.tick  value port, value: 0", "  subscribers: probe t",
        ])
        #expect(session.run("tick 2") == ["t.tick = 1  (txn 1)", "t.tick = 2  (txn 2)", "clock 2 ms"])
    }
}

@Suite("Shell: views with huge geometry")
struct ViewGeometryLimitShellTests {
    @Test func renderClipsFramesNearIntMax() {
        let session = DataflowSession()
        session.run("""
            patch far view x=9223372036854775807 y=9223372036854775807 width=9223372036854775807 height=9223372036854775807
            patch wide view x=1 y=1 width=9223372036854775807 height=9223372036854775807 text="hi"
            """)
        let canvas = session.run("render")
        #expect(canvas.count == 60)
        #expect(canvas[0] == "")
        #expect(canvas[1] == " +" + String(repeating: "-", count: 158))
        #expect(canvas[2] == " |hi")
        #expect(canvas[59] == " |")
    }

    @Test func aFrameEndingPastIntMaxRendersNothingOfItAndTapsWithoutOverflow() throws {
        let session = DataflowSession()
        session.run("patch v view x=9223372036854775800 y=-9223372036854775807 width=100 height=9223372036854775807")
        #expect(session.run("render") == [
            "nothing to render: no view patch has a frame to draw "
                + "(a view is drawn when its width and height are at least 2 and its x and y are not negative)",
        ])
        session.run("patch t tap\nwire v.frame -> t.view\nprobe t --future")
        try session.expectTap("tap v 9223372036854775807 -2", fired: ["t"], seeing: [.probe("t.x", 7, txn: 3), .probe("t.y", 9223372036854775805, txn: 3)])
        try session.expectTap("tap v 1 1", fired: [], seeing: [])
        try session.expectTap("tap v -9223372036854775807 0", fired: [], seeing: [])
    }

    @Test func aNegativeWidthMissesEveryTap() throws {
        let session = DataflowSession()
        session.run("patch v view x=5 width=-9223372036854775807\npatch t tap\nwire v.frame -> t.view")
        try session.expectTap("tap v 5 0", fired: [], seeing: [])
    }
}
