@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayRecorder
@_spi(Shell) import PatchbayHistory

extension Shell {
    /// `inspect --listen [HOST:]PORT`: starts a fresh session, as `inspect` does, with no store
    /// yet, and listens for one app's `Recorder` (see `Listening`); what it sends is followed as
    /// `inspect FILE --follow` follows a file (`readFollowed()`). Off loopback a token is
    /// required: the one given, or a new one printed here.
    func startListening(_ address: ListenAddress, options: InspectOptions, at range: Range<Int>) throws(ShellError) -> CommandResult {
        let name = SessionSocket.endpointName(host: address.host, port: address.port)
        // A replay runs to its end on what the recording holds: it waits for no app.
        if replayAccess != nil {
            throw ShellError(.session(path: name, detail: "a replayed 'inspect --listen' does not listen; the recording holds what arrived"),
                             at: range)
        }
        try checkReplaceable(by: "inspect", force: options.force, at: range)
        let listener: SessionListener
        do throws(SessionError) { listener = try SessionListener(host: address.host, port: address.port) } catch {
            throw ShellError(.session(path: name, detail: error.detail), at: range)
        }
        let token = address.token ?? (listener.isLoopback ? nil : SessionSocket.randomToken())
        let recorders = restartingRecorders()
        startOver()
        running.hasStartedInnerCommands = true
        recordRestart(into: recorders)
        following = Following(path: listener.name, reader: nil, inspection: Inspection(graph: graph, histories: histories),
                              idleSeconds: options.idleSeconds, listening: Listening(listener: listener, token: token))
        return CommandResult(ListeningStarted(host: address.host, port: listener.port, token: token, isLoopback: listener.isLoopback,
                                              idleSeconds: options.idleSeconds))
    }
}
