// An app that records its store while it runs, for the end-to-end test of
// `patchbay inspect FILE --follow`: a typed `Store` recorded by the library `Recorder`, whose
// actions are appended to the file one line at a time, with a pause between them.
//
//     patchbay-follow-writer FILE COUNT PAUSE_MS [START_DELAY_MS]
//
// Creates FILE (its header and store line), waits START_DELAY_MS, then dispatches COUNT actions
// `increment(by: i)` (i = 1...COUNT), PAUSE_MS apart, and exits.
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

let arguments = CommandLine.arguments
guard arguments.count >= 4, let count = Int(arguments[2]), let pause = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: patchbay-follow-writer FILE COUNT PAUSE_MS [START_DELAY_MS]\n".utf8))
    exit(2)
}
let startDelay = arguments.count > 4 ? Int(arguments[4]) ?? 0 : 0
let store = Store(initialState: Counter(), reducer: Reducer<Counter, CounterAction> { state, action in
    switch action {
    case .increment(let by):
        state.count += by
        state.last = by
    }
})
do {
    let recorder = try Recorder(store: store, path: arguments[1], detail: .everyChange)
    Thread.sleep(forTimeInterval: Double(startDelay) / 1000)
    for index in 0..<max(0, count) {
        store.dispatch(.increment(by: index + 1))
        if pause > 0 { Thread.sleep(forTimeInterval: Double(pause) / 1000) }
    }
    recorder.stop()
    if let error = recorder.error {
        FileHandle.standardError.write(Data("patchbay-follow-writer: \(error)\n".utf8))
        exit(1)
    }
} catch {
    FileHandle.standardError.write(Data("patchbay-follow-writer: \(error)\n".utf8))
    exit(1)
}
