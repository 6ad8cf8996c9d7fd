#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayRecorder
@_spi(Shell) import PatchbayShell
import Synchronization

/// R-FOL: `inspect FILE --follow` reading what an app appends at 10,000 actions per second.
///
/// The app is a thread of this process: a typed `Store` (`{count, last}`, actions
/// `increment(by:)`) recorded by the library `Recorder`, one line per action with one write,
/// paced to 10,000 actions per second. The follower is a `Shell` that ran `inspect FILE --follow`
/// and calls `readFollowed()` in a loop, as a script run does (a pause of 1 ms when nothing came),
/// until every action has printed. The figure is the follower's busy time per action, the time
/// inside the calls that read something: reading, rebuilding and rendering each new action's
/// line. Its inverse is the rate the follower can sustain, which must be at least the app's
/// 10,000 actions per second (the ratio is printed). The notes give the rate the app achieved
/// and the lag: how long after the app's last action the follower had printed it.
extension SessionBenchmarks {
    static let followTargetRate = 10_000.0

    /// What the last trial saw besides the figure, for the notes.
    final class FollowFigures {
        var writerRate = Double.nan
        var lagMilliseconds = Double.nan
    }

    static func followRow(actions: Int) -> BenchmarkRow {
        let figures = FollowFigures()
        return BenchmarkRow(
            id: "R-FOL", title: "inspect FILE --follow of an app appending \(actions) actions at 10,000/s: follower busy time per action",
            ours: follow(actions: actions, figures: figures),
            reference: nil,
            target: .perSecondAtLeast(followTargetRate),
            notes: { ours, _, _ in
                let capacity = 1e9 / ours
                return ["follow: \(Self.micro(ours)) µs busy per action, so \(formatted(capacity, digits: 0)) actions/s, "
                    + "\(formatted(capacity / followTargetRate, digits: 1))x the 10,000/s an app appends; app achieved "
                    + "\(formatted(figures.writerRate, digits: 0)) actions/s; last action printed \(formatted(figures.lagMilliseconds, digits: 1)) ms "
                    + "after it was written"]
            }
        )
    }

    static func follow(actions: Int, figures: FollowFigures) -> Workload {
        Workload(operations: actions) {
            let path = "/tmp/patchbay-benchmarks-\(getpid())-follow.jsonl"
            let app = FollowingApp(path: path, actions: actions, rate: followTargetRate)
            try app.start()
            let shell = Shell()
            let busy = Box(0.0)
            return Trial(expectedChecksum: actions, run: {
                defer { unlink(path) }
                let opened = shell.execute("inspect \(path) --follow")
                guard opened.status == .success, shell.isFollowing else {
                    throw CorrectnessFailure(description: "inspect --follow: \(opened.lines.map(\.text))")
                }
                app.go()
                var printed = 0
                var lastLine = ""
                while printed < actions {
                    let start = monotonicNanoseconds()
                    let lines = shell.readFollowed()
                    if lines.isEmpty {
                        guard shell.isFollowing, !app.failed else {
                            throw CorrectnessFailure(description: "following stopped after \(printed) actions")
                        }
                        usleep(1_000)
                        continue
                    }
                    busy.value += Double(monotonicNanoseconds() - start)
                    printed += lines.count
                    lastLine = lines.last?.text ?? ""
                }
                let caughtUp = ContinuousClock.now
                app.wait()
                _ = shell.stopFollowing()
                guard lastLine.hasPrefix("#\(actions) increment") else { throw CorrectnessFailure(description: "last line: \(lastLine)") }
                figures.writerRate = app.achievedRate
                figures.lagMilliseconds = app.finished.map { (caughtUp - $0).timeInterval * 1000 } ?? .nan
                return printed
            }, measurement: { busy.value / Double(actions) })
        }
    }
}

/// The app of R-FOL: a thread that records a typed store into `path` with `Recorder`, then, once
/// told to go, dispatches `actions` actions paced to `rate` per second.
final class FollowingApp: Sendable {
    struct Counter: Codable {
        var count = 0
        var last = 0
    }

    enum Action: Codable {
        case increment(by: Int)
    }

    let path: String
    let actions: Int
    let rate: Double
    private let ready = DispatchSemaphore(value: 0)
    private let going = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private let outcome = Mutex<(started: ContinuousClock.Instant?, finished: ContinuousClock.Instant?, failed: Bool)>((nil, nil, false))

    init(path: String, actions: Int, rate: Double) {
        self.path = path
        self.actions = actions
        self.rate = rate
    }

    /// Starts the thread; returns once the file holds its store line.
    func start() throws {
        Thread { self.run() }.start()
        ready.wait()
        if failed { throw CorrectnessFailure(description: "the app could not record into \(path)") }
    }

    func go() { going.signal() }

    func wait() { done.wait() }

    var failed: Bool { outcome.withLock { $0.failed } }

    var finished: ContinuousClock.Instant? { outcome.withLock { $0.finished } }

    /// The actions per second the app appended.
    var achievedRate: Double {
        outcome.withLock { outcome in
            guard let start = outcome.started, let end = outcome.finished else { return .nan }
            return Double(actions) / (end - start).timeInterval
        }
    }

    private func run() {
        defer { done.signal() }
        let store = Store(initialState: Counter(), reducer: Reducer<Counter, Action> { state, action in
            switch action {
            case .increment(let by):
                state.count += by
                state.last = by
            }
        })
        let recorder: Recorder<Counter, Action>
        do {
            recorder = try Recorder(store: store, path: path, replacing: true)
        } catch {
            outcome.withLock { $0.failed = true }
            ready.signal()
            return
        }
        ready.signal()
        going.wait()
        let start = ContinuousClock.now
        outcome.withLock { $0.started = start }
        let interval = 1.0 / rate
        for index in 0..<actions {
            // Paced: action `index` goes at start + index / rate, sleeping when ahead by more
            // than a millisecond.
            let due = start + .seconds(Double(index) * interval)
            let ahead = due - ContinuousClock.now
            if ahead > .milliseconds(1) { Thread.sleep(forTimeInterval: ahead.timeInterval) }
            store.dispatch(.increment(by: index + 1))
        }
        let end = ContinuousClock.now
        recorder.stop()
        outcome.withLock {
            $0.finished = end
            $0.failed = recorder.error != nil
        }
    }
}

extension Duration {
    /// The duration in seconds, as `TimeInterval`.
    var timeInterval: TimeInterval { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
