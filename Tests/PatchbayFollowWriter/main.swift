// An app that records its store while it runs, for the end-to-end tests of
// `patchbay inspect FILE --follow` and `patchbay inspect --listen`: a typed `Store` recorded by
// the library `Recorder`, whose actions are written one line at a time, with a pause between
// them, to a file or to a listening shell.
//
//     patchbay-follow-writer FILE COUNT PAUSE_MS [START_DELAY_MS]
//     patchbay-follow-writer --connect [HOST:]PORT [--token TOKEN] COUNT PAUSE_MS [START_DELAY_MS]
//
// Creates FILE (its header and store line), or connects to the shell, waits START_DELAY_MS,
// then dispatches COUNT actions `increment(by: i)` (i = 1...COUNT), PAUSE_MS apart, and exits.
// With --connect, a connection the shell drops ends the recording, not the app: it prints
// `recording stopped: ...` and still exits 0 after its last action.
import Foundation
import PatchbayCore
import PatchbayRecorder

struct Counter: Codable {
    var count = 0
    var last = 0
}

enum CounterAction: Codable {
    case increment(by: Int)
}

func fail(_ message: String, status: Int32 = 1) -> Never {
    FileHandle.standardError.write(Data("patchbay-follow-writer: \(message)\n".utf8))
    exit(status)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var connection: (host: String, port: Int, token: String?)?
if arguments.first == "--connect", arguments.count > 1 {
    let address = arguments[1]
    let colon = address.lastIndex(of: ":")
    guard let port = Int(colon.map { String(address[address.index(after: $0)...]) } ?? address) else { fail("bad address \(address)", status: 2) }
    connection = (colon.map { String(address[..<$0]) } ?? "127.0.0.1", port, nil)
    arguments.removeFirst(2)
    if arguments.first == "--token", arguments.count > 1 {
        connection?.token = arguments[1]
        arguments.removeFirst(2)
    }
    arguments.insert("", at: 0)
}
guard arguments.count >= 3, let count = Int(arguments[1]), let pause = Int(arguments[2]) else {
    fail("usage: patchbay-follow-writer (FILE | --connect [HOST:]PORT [--token TOKEN]) COUNT PAUSE_MS [START_DELAY_MS]", status: 2)
}
let startDelay = arguments.count > 3 ? Int(arguments[3]) ?? 0 : 0
let store = Store(initialState: Counter(), reducer: Reducer<Counter, CounterAction> { state, action in
    switch action {
    case .increment(let by):
        state.count += by
        state.last = by
    }
})
do {
    let recorder = if let connection {
        try Recorder(store: store, connectingTo: connection.host, port: connection.port, token: connection.token, detail: .everyChange)
    } else {
        try Recorder(store: store, path: arguments[0], detail: .everyChange)
    }
    Thread.sleep(forTimeInterval: Double(startDelay) / 1000)
    for index in 0..<max(0, count) {
        store.dispatch(.increment(by: index + 1))
        if pause > 0 { Thread.sleep(forTimeInterval: Double(pause) / 1000) }
    }
    recorder.stop()
    if let error = recorder.error {
        if connection == nil { fail("\(error)") }
        print("recording stopped: \(error)")
    }
    print("dispatched \(count) actions")
} catch {
    fail("\(error)")
}
