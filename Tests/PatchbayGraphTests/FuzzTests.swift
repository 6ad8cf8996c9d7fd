@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
import PatchbayTestSupport
import Testing

// No input makes the program crash, hang, or overflow its stack: binary garbage gets a clear
// error. Damaged copies of valid expressions and statements are parsed and run; whatever
// happens must be a value or an ExpressionError, never a crash.

private let corpus: [String] = [
    // Expressions
    "state.count + 1",
    #""count is \(state.count)""#,
    #"state.user?.name ?? "guest""#,
    "map(state.items, t => t.title)",
    "reduce(state.xs, 0, (acc, x) => acc + x)",
    "filter(state.items, t => !t.done)",
    #"{title: "x", 'b': [1, 2.5, -3e2,], nested: {a: null}}"#,
    "true ? 1 : false ? 2 : 3",
    "-9223372036854775808 + 0",
    "7 / 2 == 3.5 && 6 / 3 == 2",
    #"'single \'quoted\' \u{1F600} \ud83d\ude00 \n\t'"#,
    "sortBy(state.items, t => t.title)[0]?.title",
    #"join(split("a,b,c", ","), "-")"#,
    "len(keys(merge({a: 1}, {b: 2})))",
    "$ * 2 + counter",
    "clock.tick + len(profile.name)",
    "range(2, 10, 3)",
    #"str(round(3.14159, 2)) + upper(trim("  x "))"#,
    #"get(state.user, "age", 30) >= 18 || has(state.xs, 5)"#,
    "state.xs[state.count - 1] % 2 != 0",
    "[[[1]], {a: {b: {c: [2]}}}]",
    #""nested \("inner \(1 + 2)")""#,
    "find(state.items, t => t.done)?.title ?? type(null)",
    // Statements
    #"state.count += 1; state.user.name = "Ada""#,
    "if state.count > 1 { state.big = true } else if state.count == 0 { delete state.user } else { state.xs[0] = 0 }",
    "{\n  state.items = append(state.items, {title: action.title, done: false})\n  emit out len(state.items)\n}",
    "delete state.xs[0]; state.list = prepend(state.xs, -1)",
    "state.a.b.c = [1, 2, 3]; state.a.b.c[1] -= 1",
    #"emit log "x=\($)"; state = {reset: true}"#,
    "state.count = reduce(range(5), 0, (a, x) => a + x * state.count)",
    #"state["key with space"] = 'v'; state.xs[0] += 2.5"#,
]

/// Bytes the mutations insert: every kind of bracket, quote and operator, escapes, NUL, other
/// control characters and non-ASCII text.
private let fragments: [[UInt8]] = {
    let ascii = #"()[]{}"'\\+-*/%<>=!?&|.,:;$#_ aZ09e"#.utf8.map { [$0] }
    let special: [String] = ["\\(", "\\u{", "\\u", "=>", "?.", "?[", "??", "&&", "\n", "\r", "\t", "\u{0}", "\u{7F}", "é", "😀", "\u{FFFD}", "9223372036854775807", "1e308", "state", "map(", "x =>"]
    return ascii + special.map { Array($0.utf8) } + [[0xFF], [0xC3], [0x80]]
}()

/// Damages `bytes` in one of several ways.
private func mutate(_ bytes: inout [UInt8], using random: inout SplitMix64) {
    let position = bytes.isEmpty ? 0 : Int.random(in: 0...bytes.count, using: &random)
    switch Int.random(in: 0..<6, using: &random) {
    case 0, 1:
        bytes.insert(contentsOf: fragments.randomElement(using: &random)!, at: position)
    case 2:
        guard position < bytes.count else { return }
        let length = Int.random(in: 1...Swift.min(8, bytes.count - position), using: &random)
        bytes.removeSubrange(position..<position + length)
    case 3:
        guard position < bytes.count else { return }
        bytes[position] = fragments.randomElement(using: &random)!.first!
    case 4:
        guard !bytes.isEmpty else { return }
        let start = Int.random(in: 0..<bytes.count, using: &random)
        let end = Int.random(in: start...Swift.min(bytes.count, start + 16), using: &random)
        bytes.insert(contentsOf: bytes[start..<end], at: position)
    default:
        bytes.removeSubrange(position...)
    }
}

/// What a failure must look like: a range inside the source, and a one-line message.
private func checkError(_ error: ExpressionError, in source: String) {
    #expect(error.range.lowerBound >= 0 && error.range.upperBound <= source.utf8.count, "\(error.range) in \(source.debugDescription)")
    let message = error.message(in: source)
    #expect(!message.isEmpty)
    #expect(!message.contains { $0.isNewline || $0.unicodeScalars.contains { $0 != "\t" && $0.properties.generalCategory == .control } },
            "\(message.debugDescription) for \(source.debugDescription)")
}

@Suite("Fuzzing")
struct FuzzTests {
    @Test func damagedInputsReturnOrThrowButNeverCrash() {
        var random = SplitMix64(seed: 0x5EED_CAFE)
        let bindings = Bindings(input: 21, state: sampleState, action: ["title": "Tea", "by": 2])
        let environment = SampleEnvironment()
        var values = 0, errors = 0
        for _ in 0..<10_000 {
            var bytes = Array(corpus.randomElement(using: &random)!.utf8)
            for _ in 0..<Int.random(in: 1...3, using: &random) { mutate(&bytes, using: &random) }
            let source = String(decoding: bytes, as: UTF8.self)

            do {
                let value = try Expression(source).evaluate(bindings, in: environment)
                values += 1
                // What evaluation returns prints as a literal that reads back as the same value.
                if value.nestingDepth(upTo: 32) <= 32 {
                    let printed = value.description
                    #expect((try? Expression(printed).evaluate())?.description == printed, "\(printed.debugDescription)")
                }
            } catch {
                errors += 1
                checkError(error, in: source)
            }

            var state = sampleState
            do {
                try StatementBlock(source).execute(state: &state, bindings: bindings, in: environment)
                values += 1
            } catch {
                errors += 1
                checkError(error, in: source)
                #expect(state.description == sampleState.description, "a failed block changed the state: \(source.debugDescription)")
            }
        }
        // The damage is neither so light that everything works nor so heavy that nothing does.
        #expect(values > 500)
        #expect(errors > 5_000)
    }

    @Test func randomBytesReturnOrThrowButNeverCrash() {
        var random = SplitMix64(seed: 42)
        for _ in 0..<2_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...40, using: &random) {
                bytes += Bool.random(using: &random) ? fragments.randomElement(using: &random)! : [UInt8.random(in: 0...255, using: &random)]
            }
            let source = String(decoding: bytes, as: UTF8.self)
            do { _ = try Expression(source).evaluate(sampleBindings, in: SampleEnvironment()) } catch { checkError(error, in: source) }
            var state = sampleState
            do { try StatementBlock(source).execute(state: &state, in: SampleEnvironment()) } catch { checkError(error, in: source) }
        }
    }

    @Test func theGeneratorIsDeterministic() {
        var a = SplitMix64(seed: 7), b = SplitMix64(seed: 7)
        #expect((0..<5).map { _ in a.next() } == (0..<5).map { _ in b.next() })
        // The first output of SplitMix64 seeded with 0, as published with the algorithm.
        var zero = SplitMix64(seed: 0)
        #expect(zero.next() == 0xE220_A839_7B1D_CDAF)
    }
}
