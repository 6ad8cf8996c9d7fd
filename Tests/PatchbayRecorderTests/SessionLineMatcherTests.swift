import PatchbayCore
@testable import PatchbayRecorder
import Testing

/// Matching an event with a line without writing it says what writing it and comparing says.
@Suite struct SessionLineMatcherTests {
    /// Whether `event`, written with `seq`, would be `line`, as the matcher finds.
    static func matches(_ event: SessionEvent, seq: Int, _ line: [UInt8]) -> Bool {
        line.withUnsafeBufferPointer { line in
            var matcher = SessionLineMatcher(line, scratch: [])
            event.encode(seq: seq, into: &matcher)
            return matcher.matchesWholeLine
        }
    }

    @Test func everyEventMatchesTheLineWrittenForIt() {
        var generator = ValueGenerator(seed: 51)
        for seq in 1...3000 {
            let event = generator.event()
            #expect(Self.matches(event, seq: seq, Array(event.line(seq: seq).utf8)), "\(event.line(seq: seq))")
        }
    }

    @Test func anEventMatchesNoOtherLine() {
        var generator = ValueGenerator(seed: 52)
        let replacements = Array(#",}{[]":\ 019aez-."#.utf8) + [0x7F, 0x01, 0xC3]
        for seq in 1...3000 {
            let event = generator.event()
            let line = Array(event.line(seq: seq).utf8)
            var changed = line
            let position = generator.int(0..<changed.count)
            switch generator.int(0..<4) {
            case 0: changed.remove(at: position)
            case 1: changed.insert(replacements[generator.int(0..<replacements.count)], at: position)
            case 2: changed[position] = replacements[generator.int(0..<replacements.count)]
            default: changed.removeLast(generator.int(1...changed.count))
            }
            #expect(Self.matches(event, seq: seq, changed) == (changed == line), "\(String(decoding: changed, as: UTF8.self))")
            #expect(!Self.matches(event, seq: seq + 1, line))
            #expect(!Self.matches(event, seq: seq, line + Array(" ".utf8)))
        }
    }

    @Test func theWorkingSpaceIsKept() {
        let event = SessionEvent.publish(port: "x.value", value: ["a": 1.5, "b": "tab\there"])
        let line = Array(event.line(seq: 3).utf8)
        line.withUnsafeBufferPointer { line in
            var matcher = SessionLineMatcher(line, scratch: [])
            event.encode(seq: 3, into: &matcher)
            #expect(matcher.matchesWholeLine)
            #expect(matcher.scratchSpace.capacity > 0)
        }
    }
}
