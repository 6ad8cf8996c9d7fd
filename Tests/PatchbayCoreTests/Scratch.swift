import Testing
@testable import PatchbayCore

func probe(_ s: String, _ b: Bindings = Bindings(state: ["count": 2, "user": ["name": "Max"], "items": [["title": "a"], ["title": "b"]], "xs": [1,2,3]])) -> String {
    do {
        let e = try Expression(s)
        let v = try e.evaluate(b)
        return "OK \(v) [\(v.typeName)]"
    } catch {
        let col = String(decoding: Array(s.utf8)[0..<min(error.range.lowerBound, s.utf8.count)], as: UTF8.self).count + 1
        return "ERR col \(col) range \(error.range): \(error.message(in: s))"
    }
}

@Test func scratch() {
    let inputs: [String] = ProcessInfoLines.lines
    for i in inputs { print("\(i.prefix(80))  ==>  \(probe(i).prefix(300))") }
}
