import Foundation
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayRecorder
@_spi(Shell) import PatchbayHistory

extension Shell {
    /// The path a command that writes a file writes, never one in use (see `checkNotInUse`).
    /// During a replay, only one that `--allow-files` lets it, beside the recording.
    func writablePath(_ path: String, at range: Range<Int>) throws(ShellError) -> String {
        let resolved = try replayedPath(path, writing: true, at: range) ?? inDirectory(path)
        try checkNotInUse(resolved, at: range)
        return resolved
    }

    /// `path`, relative to `options.directory` when it is relative and one is set.
    func inDirectory(_ path: String) -> String {
        guard let directory = options.directory, !path.hasPrefix("/") else { return path }
        return directory + "/" + path
    }

    /// The path a command that reads a file reads: beside the script that runs it, if there is
    /// one there (see `ScriptFile.resolve`). During a replay, only one that `--allow-files` lets
    /// it, beside the recording; never the file being recorded.
    func readablePath(_ path: String, from origin: SourceOrigin, at range: Range<Int>) throws(ShellError) -> String {
        let resolved = try replayedPath(path, writing: false, at: range) ?? inDirectory(ScriptFile.resolve(path, from: origin))
        if let recording, let identity = FileIdentity(path: resolved), FileIdentity(path: recording.writer.path) == identity {
            throw ShellError(.file(path: resolved, detail: "it is being recorded; 'record stop' first"), at: range)
        }
        return resolved
    }

    /// The path a replayed command may use, or `nil` outside a replay. A replay runs someone's
    /// commands: they touch no file unless the user passed `--allow-files`, and then only files
    /// under the recording's directory.
    func replayedPath(_ path: String, writing: Bool, at range: Range<Int>) throws(ShellError) -> String? {
        guard let access = replayAccess else { return nil }
        let verb = writing ? "writes" : "reads"
        // A refused write says it could not write, a refused read that it could not read.
        func refusal(_ path: String, _ detail: String) -> ShellError.Reason {
            writing ? .cannotWrite(path: path, detail: detail) : .file(path: path, detail: detail)
        }
        guard access.allowFiles else {
            throw ShellError(refusal(path, "a replayed command \(verb) no file unless the replay has --allow-files"), at: range)
        }
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        guard !path.hasPrefix("/"), !path.hasPrefix("~"), !parts.contains(".."), !parts.isEmpty else {
            throw ShellError(refusal(path, "a replayed command \(verb) only files beside the recording (a relative path without '..')"), at: range)
        }
        let joined = access.directory + "/" + path
        guard Self.staysInside(access.directory, joined) else {
            throw ShellError(refusal(path, "a replayed command \(verb) only files beside the recording, and a symbolic link "
                                   + "leads this path out of the recording's directory"), at: range)
        }
        return joined
    }

    /// Whether `path` names a file under `directory` once symbolic links are resolved: the
    /// longest part of it that exists, resolved (`realpath`), must be under the resolved
    /// directory, and what follows it must not exist yet (a link that leads nowhere counts as
    /// leading out).
    private static func staysInside(_ directory: String, _ path: String) -> Bool {
        guard let root = realPath(directory) else { return false }
        var existing = path
        var rest: [Substring] = []
        var resolved = realPath(existing)
        while resolved == nil {
            guard let slash = existing.lastIndex(of: "/") else { return false }
            rest.insert(existing[existing.index(after: slash)...], at: 0)
            existing = String(existing[..<slash])
            resolved = realPath(existing.isEmpty ? "/" : existing)
        }
        if let first = rest.first {
            var status = stat()
            if lstat(resolved! + "/" + first, &status) == 0 { return false }
        }
        let inside = resolved!
        return inside == root || inside.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }

    /// `realpath(3)` of `path`, or `nil` when some part of it does not exist.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Refuses to start the session over (`replay`, `inspect`) while it holds something, unless
    /// forced: nothing a user made disappears silently. The app's stores come back in a fresh
    /// session, at their initial states: only what they hold besides would be lost, and `save`
    /// leaves them out, so a recording is what keeps them.
    func checkReplaceable(by command: String, force: Bool, at range: Range<Int>) throws(ShellError) {
        guard !force, replayAccess == nil else { return }
        let hosted = graph.hostedStoreNames
        let nodes = graph.nodeNames.count - hosted.count, routes = graph.routePatterns.count
        let hostedHeld = hosted.compactMap(heldByHostedStore)
        guard nodes + routes + hostedHeld.count > 0 else { return }
        var held: [String] = []
        if nodes > 0 { held.append(counted(nodes, "node")) }
        if routes > 0 { held.append(counted(routes, "route")) }
        held += hostedHeld
        let list = held.count == 1 ? held[0] : held.dropLast().joined(separator: ", ") + " and " + held[held.count - 1]
        guard hostedHeld.isEmpty else {
            throw ShellError(.session(path: command, detail: "it starts a fresh session, where the app's stores start again at their initial states, "
                                      + "and this one holds \(list); 'record FILE' then 'record stop' keeps it all ('replay FILE' brings it back), "
                                      + "or add --force"), at: range)
        }
        throw ShellError(.session(path: command, detail: "it starts a fresh session and this one holds \(list); "
                                  + "'save FILE' or 'reset' first, or add --force"), at: range)
    }

    /// What a fresh session would lose of hosted store `name`: its history (`the history of
    /// todos (3 steps)`), or a state other than the app's initial one; `nil` when it holds
    /// neither.
    func heldByHostedStore(_ name: String) -> String? {
        guard let history = try? histories.history(of: name).history else { return nil }
        let others = history.branches.count - 1
        if history.count > 0 || others > 0 {
            let branches = others > 0 ? " and \(others) other branch\(others == 1 ? "" : "es")" : ""
            return "the history of \(name) (\(counted(history.count, "step"))\(branches))"
        }
        guard let hosted = hostedStores.first(where: { $0.name == name }), let initial = try? hosted.makeReducer().initialState(),
              let state = try? graph.storeState(name), state != initial
        else { return nil }
        return "a state of \(name) other than its initial state"
    }

    /// Opens a session for `inspect`: a regular file, as `load` reads, unless it is followed
    /// (`--follow` reads a pipe as it is written).
    func openSession(_ path: String, following: Bool, at range: Range<Int>) throws(ShellError) -> SessionFileReader {
        do {
            return try SessionFileReader(path: path, following: following, regularOnly: !following)
        } catch {
            throw Self.sessionOpeningError(error, path: path, at: range)
        }
    }

    /// What opening a session file for reading failed with, in the words `load` uses for a
    /// file that is not a regular one.
    private static func sessionOpeningError(_ error: SessionError, path: String, at range: Range<Int>) -> ShellError {
        if case .notRegularFile = error.reason { return ShellError(.file(path: path, detail: error.detail), at: range) }
        return ShellError(.session(path: path, detail: error.detail), at: range)
    }

    /// Opens a session for a replay, which reads its steps (commands with their recorded
    /// effects) as it runs them.
    func openSteps(_ path: String, at range: Range<Int>) throws(ShellError) -> SessionStepReader {
        do {
            return try SessionStepReader(path: path, regularOnly: true)
        } catch {
            throw Self.sessionOpeningError(error, path: path, at: range)
        }
    }
}

/// What the commands a replay runs may do with files (see `Shell.writablePath`).
struct ReplayAccess {
    /// `--allow-files`: files under `directory` only.
    var allowFiles: Bool
    /// The recording's directory.
    var directory: String
}
