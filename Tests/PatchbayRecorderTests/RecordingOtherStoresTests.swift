import Foundation
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayRecorder
import Testing

// The recording snippets of the article "Recording and verifying sessions", compiled against
// small stand-ins for ReSwift and TCA (the shapes the snippets use, nothing more). The test
// `theArticleShowsTheseSnippets` keeps the article's code and this code the same.

/// ReSwift's types, as far as a recording middleware uses them.
private enum ReSwift {
    protocol Action {}
    typealias DispatchFunction = (any Action) -> Void
    typealias Middleware<State> = (@escaping DispatchFunction, @escaping () -> State?) -> (@escaping DispatchFunction) -> DispatchFunction

    /// ReSwift's store: middleware around the reducer, outermost first.
    final class Store<State> {
        private(set) var state: State
        private var dispatchFunction: DispatchFunction = { _ in }

        init(reducer: @escaping (any Action, State?) -> State, state: State, middleware: [Middleware<State>]) {
            self.state = state
            let reduce: DispatchFunction = { [unowned self] action in self.state = reducer(action, self.state) }
            dispatchFunction = middleware.reversed().reduce(reduce) { next, middleware in
                middleware({ [unowned self] action in self.dispatch(action) }, { [unowned self] in self.state })(next)
            }
        }

        func dispatch(_ action: any Action) { dispatchFunction(action) }
    }

    struct AppState: Codable, Equatable { var todos: [String] = []; var done: [Bool] = [] }
    struct AddTodo: Action, Codable { var title: String }
    struct ToggleTodo: Action, Codable { var index: Int }

    static func appReducer(_ action: any Action, _ state: AppState?) -> AppState {
        var state = state ?? AppState()
        switch action {
        case let add as AddTodo: state.todos.append(add.title); state.done.append(false)
        case let toggle as ToggleTodo: state.done[toggle.index].toggle()
        default: break
        }
        return state
    }

    // The article's middleware:
    static func recording<State: Codable>(into recorder: Recorder<State, any Action>) -> Middleware<State> {
        { _, getState in
            { next in
                { action in
                    next(action)
                    if let state = getState() { recorder.record(action, state: state) }
                }
            }
        }
    }
}

/// TCA's types, as far as a recording reducer uses them.
private enum TCA {
    protocol Reducer<State, Action> {
        associatedtype State
        associatedtype Action
        func reduce(into state: inout State, action: Action) -> Effect<Action>
    }

    struct Effect<Action> { static var none: Effect { Effect() } }

    struct Feature: Reducer {
        struct State: Codable, Equatable { var count = 0 }
        enum Action: Codable { case increment(by: Int), reset }

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .increment(let by): state.count += by
            case .reset: state.count = 0
            }
            return .none
        }
    }

    // The article's wrapper:
    struct Recording<Base: Reducer>: Reducer where Base.State: Codable, Base.Action: Codable {
        let base: Base
        let recorder: Recorder<Base.State, Base.Action>

        func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
            let effect = base.reduce(into: &state, action: action)
            recorder.record(action, state: state)
            return effect
        }
    }
}

@Suite("Recording a ReSwift store and a TCA feature")
struct RecordingOtherStoresTests {
    @Test func aReSwiftMiddlewareRecordsASessionThatVerifies() throws {
        let path = temporaryPath(".jsonl")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let actions: ActionMapping<any ReSwift.Action> = .types([ActionType(ReSwift.AddTodo.self), ActionType(ReSwift.ToggleTodo.self)])
        let recorder = try Recorder<ReSwift.AppState, any ReSwift.Action>(path: path, initialState: ReSwift.AppState(), actions: actions)
        let store = ReSwift.Store(reducer: ReSwift.appReducer, state: ReSwift.AppState(), middleware: [ReSwift.recording(into: recorder)])
        store.dispatch(ReSwift.AddTodo(title: "milk"))
        store.dispatch(ReSwift.AddTodo(title: "eggs"))
        store.dispatch(ReSwift.ToggleTodo(index: 1))
        recorder.stop(state: store.state)
        #expect(recorder.error == nil)
        #expect(store.state == ReSwift.AppState(todos: ["milk", "eggs"], done: [false, true]))

        let session = RecordedSession(path: path)
        #expect(try session.verify(Reducer(reSwift: ReSwift.appReducer), actions: actions) == 3)
        // A reducer that no longer toggles is caught at the toggle.
        let broken = Reducer<ReSwift.AppState, any ReSwift.Action>(reSwift: { action, state in
            action is ReSwift.ToggleTodo ? state ?? ReSwift.AppState() : ReSwift.appReducer(action, state)
        })
        #expect { try session.verify(broken, actions: actions) } throws: { error in
            guard case .diverged(let divergence) = error as? RecordedSessionError else { return false }
            // At the toggle, or (when the recorder took no state after the add) at the checkpoint after it.
            return divergence.index == 3 && divergence.description.contains("done[1]: true → false")
        }
    }

    @Test func aTCARecordingReducerRecordsASessionThatVerifies() throws {
        let path = temporaryPath(".jsonl")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let recorder = try Recorder<TCA.Feature.State, TCA.Feature.Action>(path: path, initialState: TCA.Feature.State())
        let feature = TCA.Recording(base: TCA.Feature(), recorder: recorder)
        var state = TCA.Feature.State()
        for action in [TCA.Feature.Action.increment(by: 2), .increment(by: 5), .reset, .increment(by: 1)] {
            _ = feature.reduce(into: &state, action: action)
        }
        recorder.stop(state: state)
        #expect(recorder.error == nil)
        #expect(state.count == 1)
        let reducer = Reducer<TCA.Feature.State, TCA.Feature.Action>(tca: { state, action in TCA.Feature().reduce(into: &state, action: action) })
        #expect(try RecordedSession(path: path).verify(reducer) == 4)
    }

    /// The article shows the code above: each of its definitions is here, line for line.
    @Test func theArticleShowsTheseSnippets() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let article = try String(contentsOf: root.appendingPathComponent("Sources/PatchbayRecorder/PatchbayRecorder.docc/RecordingAndVerifying.md"),
                                 encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let sourceLines = source.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let blocks = article.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        let definitions = blocks.filter { $0.hasPrefix("func recording") || $0.hasPrefix("struct Recording") }
        #expect(definitions.count == 2)
        for block in definitions {
            let lines = block.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            let first = try #require(lines.first)
            let start = try #require(sourceLines.firstIndex { $0.hasSuffix(first) }, "the article's '\(first)' is not in the tests")
            #expect(Array(sourceLines[start..<min(start + lines.count, sourceLines.count)]).enumerated().allSatisfy { offset, line in
                offset == 0 ? line.hasSuffix(lines[0]) : line == lines[offset]
            }, "the article's '\(first)' differs from the tests'")
        }
    }
}
