// A program that depends on PatchbayCore alone, without Foundation, as an app's core library
// would: a typed store, its actions as Patchbay objects, its state as a value and back. The
// end-to-end tests run it, to show that such a program links and works.
import PatchbayCore

struct Counter: Codable, Equatable {
    var count = 0
    var readings: [Double] = []
}

enum CounterAction: Codable {
    case add(reading: Double)
    case reset
}

let store = Store(initialState: Counter(), reducer: Reducer<Counter, CounterAction> { state, action in
    switch action {
    case .add(let reading):
        state.count += 1
        state.readings.append(reading)
    case .reset:
        state = Counter()
    }
})
store.dispatch(.add(reading: 2.5))
store.dispatch(.add(reading: -1.5))
do {
    print(try ActionMapping<CounterAction>.codable().object(for: .add(reading: 2.5)))
    let encoded = try ValueEncoder().encode(store.state)
    print(encoded)
    let decoded = try ValueDecoder().decode(Counter.self, from: encoded)
    if decoded != store.state { fatalError("the state did not decode back: \(decoded)") }
} catch {
    print("error: \(error)")
}
