import Foundation
@_spi(Shell) public import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayRecorder
@_spi(Shell) import PatchbayHistory

/// A Patchbay session: parses and runs commands and renders what they print.
///
/// A shell is used from one thread (the executable's main thread); it is not `Sendable`. It has
/// no terminal code: the executable feeds it text and prints the `OutputLine`s it returns, which
/// is also how the tests drive it.
///
/// This file holds the session's state; how a command runs is in `Shell+Execute.swift`, what
/// each family's commands do in its folder (`Commands/Stores/Shell+Stores.swift` ...), and Tab
/// completion in `Shell+Completion.swift`.
@_spi(Shell)
public final class Shell {
    /// How output is rendered.
    public var options: ShellOptions
    /// Whether `quit` or `exit` ran.
    public internal(set) var hasQuit = false
    /// Lists file names for completion after `load` and similar commands.
    public var fileNames: FileNameLister
    /// How deep `load` and `replay` nest: one limit for both, so that a file that loads or
    /// replays itself stops with an error.
    var nestingDepth = 0
    /// The nodes, wires and probes of the session.
    private(set) var graph: Graph
    /// The histories of the session's stores.
    private(set) var histories: StoreHistories
    /// The recording `record FILE` writes, if one is on.
    var recording: Recording?
    /// A replay paused by `--step`, `--until` or its break.
    var replayRun: ReplayRun?
    /// The recording `inspect FILE --follow` goes on reading, if one is followed.
    var following: Following?
    /// `break [STORE] when EXPR`, and whether the condition held after the last step.
    var breakpoint: (store: String?, condition: PatchbayGraph.Expression, held: Bool)?
    /// How deep `execute` calls are nested (`load`, `replay` run commands of their own).
    var executeDepth = 0
    /// The recorder that hears the commands a verifying replay runs, at their depth.
    var replayCapture: (recorder: SessionRecorder, depth: Int)?
    /// What the commands of the replay running may do with files; `nil` outside a replay.
    var replayAccess: ReplayAccess?
    /// The stores a replay running has noted as having states made by old reducers (the note
    /// comes once per store in a replay), and whether the step running is a setup line (which
    /// rebuilds the recording's start: no note); `nil` outside a replay.
    var staleHistoryNotes: (noted: Set<String>, inSetup: Bool)?
    /// The command being run: who records it, where the session stood when it started, and
    /// what it did that cannot be taken back.
    var running = CommandTransaction()
    /// The app's stores the shell hosts (see `host(_:)`), which every fresh session has.
    private(set) var hostedStores: [HostedStore] = []
    /// The files this session is reading (its scripts, loads and replays): never written
    /// (see `checkNotInUse`).
    var filesBeingRead: [FileIdentity] = []
    /// The user's editor, which `edit REDUCER` opens; `nil` (no terminal, or neither `VISUAL`
    /// nor `EDITOR` set) makes `edit` an error.
    public var editor: ExternalEditor?
    /// Where a command that reads a long history (`blame`, `find`, a filtered `history`) says
    /// how far it has come, once it has run for `progressDelay`, a few times a second: a line
    /// such as `blame: 120000 of 200000 steps (Ctrl-C stops)`, then `nil` when the command
    /// ends, to clear it. The interactive session shows it on the terminal; `nil` shows nothing.
    public var progressHandler: ((String?) -> Void)?
    /// How long a command runs before its progress shows.
    var progressDelay: Duration = .seconds(1)
    /// When the running command started, and when its progress last showed, if it did.
    var progressTimes: (start: ContinuousClock.Instant, shown: ContinuousClock.Instant?)?
    /// The store `use STORE` selected: commands that leave out their STORE use it. A fresh
    /// session has none, and a store that goes takes its selection with it.
    public internal(set) var selectedStore: String?
    /// The action types a warning said no reducer of a store handles, by store: each is said
    /// once, while the store lasts.
    var warnedActionTypes: [String: Set<String>] = [:]

    public init(options: ShellOptions = ShellOptions(), fileNames: FileNameLister = FileNameLister()) {
        self.options = options
        self.fileNames = fileNames
        graph = Graph()
        histories = StoreHistories(graph: graph)
    }

    /// Hosts the app's `stores` (see `HostedStore`): they exist from now on, and again in every
    /// fresh session (`reset`, `replay`, `inspect`).
    /// - Throws: a one-line error naming the store that cannot be hosted (a name that commands
    ///   could not type, or that another store has, a state that does not encode); the stores
    ///   before it are hosted.
    public func host(_ stores: [HostedStore]) throws(ShellError) {
        for store in stores {
            // Said for the app's code, which names the store: the user cannot rename it here.
            guard Value.isBareKey(store.name) else {
                throw ShellError(.graph(.hostedState("cannot host \(Value.string(store.name).jsonText): a store's name is a letter or _ "
                    + "followed by letters, digits or _, as commands type it; rename it in its HostedStore(...)")), at: 0..<0)
            }
            if hostedStores.contains(where: { $0.name == store.name }) {
                throw ShellError(.graph(.hostedState("cannot host \(store.name) twice: two of the HostedStores passed to the host "
                    + "are named '\(store.name)'; give each its own name")), at: 0..<0)
            }
            do throws(GraphError) { try graph.host(store) } catch {
                throw ShellError(.graph(.hostedState("cannot host \(store.name): \(error)")), at: 0..<0)
            }
            hostedStores.append(store)
        }
    }

    /// Starts a fresh session: no nodes, no stores, no histories. A recording goes on, on the
    /// new graph.
    func startOver() {
        graph = Graph()
        histories = StoreHistories(graph: graph)
        // The app's stores are part of the host, not of the session: they start over too.
        for store in hostedStores { try? graph.host(store) }
        replayRun = nil
        following = nil
        selectedStore = nil
        warnedActionTypes = [:]
        recording?.recorder.attach(to: graph, histories: histories)
        replayCapture?.recorder.attach(to: graph, histories: histories)
    }

    /// The session's graph and histories, to be put back by `putBack(_:)` if the command that
    /// starts the session over is interrupted.
    var session: (graph: Graph, histories: StoreHistories) { (graph, histories) }

    /// Makes `session` the session again (an interrupted replay or inspect leaves the session
    /// as it was), with the recordings hearing it.
    func putBack(_ session: (graph: Graph, histories: StoreHistories)) {
        (graph, histories) = session
        recording?.recorder.attach(to: graph, histories: histories)
    }

    /// Says how far a long command has come (see `progressHandler`): `done` of `total` `units`.
    func showProgress(_ command: String, _ done: Int, of total: Int, _ units: String) {
        guard let progressHandler, let times = progressTimes else { return }
        let now = ContinuousClock.now
        guard now - times.start >= progressDelay, times.shown.map({ now - $0 >= .milliseconds(250) }) ?? true else { return }
        progressTimes?.shown = now
        progressHandler("\(command): \(done) of \(total) \(units) (Ctrl-C stops)")
    }

    /// Throws when Ctrl-C asked the running command to stop (see `Interruption`).
    func checkInterruption() throws(ShellError) {
        do throws(InterruptionError) { try Interruption.check() } catch { throw ShellError(.interrupted, at: 0..<0) }
    }

    /// Writes the file a command makes whole (see `ScriptFileWriter`): Ctrl-C before the new
    /// file takes FILE's place stops the command with FILE as it was; after, the new file stays,
    /// and the command says so instead of "nothing changed".
    func writeWhole(_ text: String, to path: String, replacing: Bool, at range: Range<Int>) throws(ShellError) {
        try ScriptFileWriter.write(text, to: path, replacing: replacing, at: range, beforeReplacing: checkInterruption)
        running.lastingChanges.wrote(path)
    }

    /// Notes that the command replaced or made `path` by other means than `writeWhole` (a
    /// recording's file).
    func noteWritten(_ path: String) {
        running.lastingChanges.wrote(path)
    }

    var renderer: Renderer { Renderer(options: options, presenter: changePresenter) }

    /// How human output shows values, with the settings of the moment.
    var style: OutputStyle {
        var style = OutputStyle(options: options)
        style.presenter = changePresenter
        return style
    }

    /// How steps' changes are matched by identity (`set identity`), with the state each step of
    /// a store started from, as its history has it; `nil` for JSON, which keeps the patch.
    var changePresenter: ChangePresenter? {
        guard let key = options.settings.identity, !options.json else { return nil }
        return ChangePresenter(key: key) { [histories, graph] store, index in
            guard let history = try? histories.history(of: store).history, index >= 1, index <= history.count,
                  let live = try? graph.storeState(store) else { return nil }
            return try? history.state(at: index - 1, current: live)
        }
    }

    /// Runs `body` while the files at `paths` are being read (scripts, a replayed recording):
    /// no recording goes into them.
    public func reading<T>(_ paths: [String], _ body: () throws -> T) rethrows -> T {
        let identities = paths.compactMap(FileIdentity.init(path:))
        filesBeingRead += identities
        defer { filesBeingRead.removeLast(identities.count) }
        return try body()
    }

    /// Renders an error found outside a command (a line too long, invalid UTF-8).
    public func report(_ error: ShellError, command: String, at origin: SourceOrigin) -> [OutputLine] {
        renderer.failure(error, command: command, origin: origin)
    }
}
