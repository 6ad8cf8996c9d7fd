// A program that depends on PatchbayCore alone, without Foundation: it proves that such a
// program links (on Linux the rounding builtins need libm, which Foundation would otherwise
// bring in) and runs. The end-to-end tests run it.
import PatchbayCore

struct Reading: Codable, Equatable {
    var label: String
    var values: [Double]
}

do {
    let rounded = try Expression("[round(2.5), floor(-1.5), ceil(1.25), round(2.345, 2)]").evaluate()
    let reading = Reading(label: "rounded", values: [2.5, -1.5])
    let encoded = try ValueEncoder().encode(reading)
    let decoded = try ValueDecoder().decode(Reading.self, from: encoded)
    print(rounded)
    print(encoded)
    if decoded != reading { fatalError("the reading did not decode back: \(decoded)") }
} catch {
    print("error: \(error)")
}
