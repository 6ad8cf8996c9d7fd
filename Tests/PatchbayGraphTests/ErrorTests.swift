@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
import Testing

// Division by zero, a type mismatch, a missing key read with ./[], an index out of range: each
// is an error naming the expression and the column. Every error is one line, and no input makes
// the program crash, hang, or overflow its stack: deep nesting (10,000 levels) gets a clear error.

@Suite("Errors: evaluation")
struct EvaluationErrorTests {
    @Test func divisionByZeroNamesTheDivision() {
        #expect(problem(of: "state.count / (state.count - 2)")
            == Problem("division by zero in 'state.count / (state.count - 2)'", column: 1))
        #expect(problem(of: "1 + 10 % 0") == Problem("division by zero in '10 % 0'", column: 5))
    }

    @Test func typeMismatchNamesBothTypes() {
        #expect(problem(of: "state.count + state.user") == Problem("cannot apply '+' to an int and an object in 'state.count + state.user'", column: 1))
        #expect(problem(of: "[state.xs * 2]") == Problem("cannot apply '*' to an array and an int in 'state.xs * 2'", column: 2))
    }

    @Test func aMissingKeyListsTheKeysThereAre() {
        #expect(problem(of: "state.user.age")
            == Problem("no key 'age' (keys: name) in 'state.user.age'; use ?. or ?? to read optional data", column: 1))
        #expect(problem(of: #"1 + state.user["age"]"#)
            == Problem(#"no key 'age' (keys: name) in 'state.user["age"]'; use ?. or ?? to read optional data"#, column: 5))
        #expect(problem(of: "{}.a") == Problem("no key 'a' in an empty object in '{}.a'; use ?. or ?? to read optional data", column: 1))
    }

    @Test func aLongListOfKeysIsShortened() {
        let state: Value = .object(.init(uniqueKeysWithValues: (1...10).map { (ObjectKey("k\($0)"), Value.int($0)) }))
        #expect(problem(of: "state.k11", Bindings(state: state))
            == Problem("no key 'k11' (keys: k1, k2, k3, k4, k5, k6, k7, k8, ...) in 'state.k11'; did you mean 'k1'?", column: 1))
    }

    @Test func anIndexOutOfRangeGivesTheCount() {
        #expect(problem(of: "state.items[2].title") == Problem("index 2 out of range (count 2) in 'state.items[2]'", column: 1))
        #expect(problem(of: "state.xs[-1]") == Problem("index -1 out of range (count 3) in 'state.xs[-1]'", column: 1))
        #expect(problem(of: #"  "abc"[3]"#) == Problem(#"index 3 out of range (count 3) in '"abc"[3]'"#, column: 3))
    }

    @Test func readingTheWrongKindOfValue() {
        #expect(problem(of: "state.count.digits") == Problem("cannot read .digits of an int in 'state.count.digits'", column: 1))
        #expect(problem(of: "state.xs.first") == Problem("cannot read .first of an array in 'state.xs.first'", column: 1))
        #expect(problem(of: "state.xs['0']") == Problem(#"cannot read ["0"] of an array in 'state.xs['0']'"#, column: 1))
        #expect(problem(of: "state.user[0]") == Problem("cannot read [0] of an object in 'state.user[0]'", column: 1))
        #expect(problem(of: "state.xs[1.0]") == Problem("cannot read [1.0] of an array in 'state.xs[1.0]'", column: 1))
    }

    @Test func theColumnCountsCharactersNotBytes() {
        // "é" is two bytes in UTF-8 but one column.
        #expect(problem(of: "['é', 'ü', 2 / 0]") == Problem("division by zero in '2 / 0'", column: 12))
        #expect(expressionError(of: "['é', 'ü', 2 / 0]")?.range == 13..<18)
    }

    @Test func theColumnCountsFromTheStartOfItsLine() {
        #expect(problem(of: "[\n  1,\n  state.nope,\n]")
            == Problem("no key 'nope' (keys: count, user, items, xs, nothing) in 'state.nope'; use ?. or ?? to read optional data", column: 3))
    }

    @Test func anErrorInsideAnInterpolationPointsIntoIt() {
        #expect(problem(of: #""total: \(state.count / 0)""#) == Problem("division by zero in 'state.count / 0'", column: 11))
    }

    @Test func descriptionLeavesOutTheOffendingText() throws {
        let source = "state.count / 0"
        let error = try #require(expressionError(of: source))
        #expect(error.description == "division by zero")
        #expect(error.message(in: source) == "division by zero in 'state.count / 0'")
        #expect(error.reason == .divisionByZero)
        #expect(!error.isSyntaxError)
    }

    @Test func keysWithLineBreaksAreEscapedInMessages() {
        #expect(problem(of: #"state.user["new\nline"]"#)
            == Problem(#"no key 'new\nline' (keys: name) in 'state.user["new\nline"]'; use ?. or ?? to read optional data"#, column: 1))
    }

    @Test func aLongOffendingTextIsShortened() {
        let source = "1 / (" + Array(repeating: "0", count: 40).joined(separator: " + ") + ")"
        #expect(problem(of: source)?.message == "division by zero in '1 / (0 + 0 + 0 + 0 + 0 + 0 + 0 + 0 + 0 + 0 + 0 + 0 + 0 + ...'")
    }

    @Test func rangesAreOffsetsIntoTheWholeSource() throws {
        // The shell parses the expression after "= ": columns still count from the line's start.
        let line = "=  state.count / 0"
        let (expression, end) = try Expression.parse(line, from: 3)
        #expect(end == line.utf8.count)
        #expect(expression.description == "state.count / 0")
        do {
            _ = try expression.evaluate(sampleBindings)
            Issue.record("no error")
        } catch {
            #expect(Problem(error, in: line) == Problem("division by zero in 'state.count / 0'", column: 4))
        }
    }
}

@Suite("Errors: names")
struct NameErrorTests {
    @Test func anUnknownNameSuggestsACloseOne() {
        #expect(problem(of: "countr + 1") == Problem("unknown name 'countr'; did you mean 'counter'?", column: 1))
        #expect(problem(of: "1 + Total") == Problem("unknown name 'Total'; did you mean 'total'?", column: 5))
    }

    @Test func anUnknownNameWithNothingCloseSaysJustThat() {
        #expect(problem(of: "[1, elephant]") == Problem("unknown name 'elephant'", column: 5))
    }

    @Test func anUnknownFunctionSuggestsAKnownOne() {
        #expect(problem(of: "lenn(state.xs)") == Problem("unknown function 'lenn'; did you mean 'len'?", column: 1))
        #expect(problem(of: "1 + sortby(state.xs, x => x)") == Problem("unknown function 'sortby'; did you mean 'sortBy'?", column: 5))
        #expect(problem(of: "frobnicate(1)") == Problem("unknown function 'frobnicate'; see 'help functions'", column: 1))
    }

    @Test func theWrongNumberOfArgumentsNamesTheCall() {
        #expect(problem(of: "1 + len()") == Problem("len takes 1 argument, got 0 in 'len()'", column: 5))
        #expect(problem(of: "[replace('a', 'b')]") == Problem("replace takes 3 arguments, got 2 in 'replace('a', 'b')'", column: 2))
    }

    @Test func specialNamesSayWhereTheyExist() {
        #expect(problem(of: "$ + 1") == Problem("'$' is not available here; it is the incoming value of wires, pipes, filters and map patches", column: 1))
        #expect(problem(of: "1 + action.by") == Problem("'action' is not available here; it is the action being reduced, in reducers", column: 5))
        #expect(problem(of: "params.id") == Problem("'params' is not available here; it holds a route's parameters, in routes and presenters", column: 1))
        #expect(problem(of: "url") == Problem("'url' is not available here; it is the routed URL, in routes and presenters", column: 1))
        #expect(problem(of: "state", Bindings()) == Problem("'state' is not available here; it is the state being reduced, in reducers and pipes", column: 1))
    }

    @Test func aPortWithoutAValueSaysWhy() {
        #expect(problem(of: "clock.silent + 1") == Problem("clock.silent is empty in 'clock.silent'", column: 1))
    }
}

@Suite("Errors: syntax")
struct SyntaxErrorTests {
    @Test(arguments: [
        (#""abc"#, "unterminated string; add the closing quote", 1),
        ("1 + 'abc", "unterminated string; add the closing quote", 5),
        (#""ends in a backslash\"#, "unterminated string; add the closing quote", 1),
        (#""\(1 + 2"#, #"expected ')' to close the interpolation \(, found the end of the input"#, 2),
        (#""a\qb""#, #"invalid escape '\q' in a string; use \n, \t, \", \\, \u{...} or \(expr)"#, 3),
        (#""\uZZZZ""#, #"invalid escape '\u' in a string; use \n, \t, \", \\, \u{...} or \(expr)"#, 2),
        (#""\u12""#, #"invalid escape '\u12' in a string; use \n, \t, \", \\, \u{...} or \(expr)"#, 2),
        ("\"\\\u{85}\"", #"invalid escape '\U+0085' in a string; use \n, \t, \", \\, \u{...} or \(expr)"#, 2),
        (#""\ud800""#, #"invalid escape '\ud800' in a string; use \n, \t, \", \\, \u{...} or \(expr)"#, 2),
        (#""\ud800\u0041""#, #"invalid escape '\ud800' in a string; use \n, \t, \", \\, \u{...} or \(expr)"#, 2),
        (#""\u{110000}""#, #"invalid escape '\u{110000}' in a string; use \n, \t, \", \\, \u{...} or \(expr)"#, 2),
        (#""\u{D800}""#, #"invalid escape '\u{D800}' in a string; use \n, \t, \", \\, \u{...} or \(expr)"#, 2),
        (#""\u{}""#, #"invalid escape '\u{}' in a string; use \n, \t, \", \\, \u{...} or \(expr)"#, 2),
        ("9223372036854775808", "integer 9223372036854775808 does not fit in 64 bits; write it as a decimal: 9223372036854775808.0", 1),
        ("1 + 99999999999999999999", "integer 99999999999999999999 does not fit in 64 bits; write it as a decimal: 99999999999999999999.0", 5),
        ("-9223372036854775809", "integer 9223372036854775809 does not fit in 64 bits; write it as a decimal: 9223372036854775809.0", 2),
        ("007", "invalid number '007'", 1),
        ("2 * 1abc", "invalid number '1abc'", 5),
        ("1.5e", "invalid number '1.5e'", 1),
        ("1e999", "invalid number '1e999'", 1),
        ("1 2", "expected an operator or the end of the expression, found '2'", 3),
        ("state.count 'x'", #"expected an operator or the end of the expression, found a string"#, 13),
        ("(1", "expected ')', found the end of the input", 3),
        ("[1 2]", "expected ',' or ']', found '2'", 4),
        ("{a 1}", "expected ':' after the key 'a', found '1'", 4),
        ("{1: 2}", "expected a key or '}', found '1'", 2),
        ("1 +", "expected a value, found the end of the input", 4),
        ("1 ** 2", "expected a value, found '*'", 4),
        ("state.", "expected a key name after '.', found the end of the input", 7),
        ("true ? 1", "expected ':' of the conditional ?:, found the end of the input", 9),
        ("", "expected a value, found the end of the input", 1),
        ("a & b", "unexpected character '&'", 3),
        ("1 + é", "unexpected character 'é'", 5),
        ("1 + \u{0}", "unexpected character U+0000", 5),
        ("1 + \u{202E}", "unexpected character U+202E", 5),
        ("1 + \u{2028}", "unexpected character U+2028", 5),
        ("[1,\n  2 +]", "expected a value, found ']'", 6),
        ("1\n+ 2", "expected the end of the expression, found the end of the line", 2),
    ])
    func syntaxErrorsPointAtTheOffendingToken(_ source: String, _ message: String, _ column: Int) throws {
        let error = try #require(expressionError(of: source))
        #expect(error.isSyntaxError)
        #expect(Problem(error, in: source) == Problem(message, column: column))
    }

    @Test(arguments: [
        ("x => x + 1", 3),
        ("len(x => x)", 5),
        ("[1, x => x]", 7),
        ("=> 1", 1),
        ("map(state.xs, x => y => 1)", 22),
    ])
    func aLambdaOutsideAFunctionArgument(_ source: String, _ column: Int) {
        #expect(problem(of: source)
            == Problem("a lambda (x => ...) can only be an argument of a function such as map or filter", column: column))
    }

    @Test func everyMessageIsOneLine() throws {
        let sources = [
            "1\n2", "\"a\nb", "1 \"x\ny\"", "[\n1\n2\n]", "\"\\\r\"", "{\n}\n.a", "state[\"a\\nb\"]", "{\"a\\r\\nb\" 1}",
            "state[\"\\u{2028}\"]", "1 +\r\n2 * 'x'", "state.\u{85}x",
        ]
        for source in sources {
            let error = try #require(expressionError(of: source), "\(source)")
            let message = error.message(in: source)
            #expect(!message.contains { $0.isNewline || $0.unicodeScalars.contains { $0 != "\t" && $0.properties.generalCategory == .control } },
                    "\(message)")
        }
    }
}

@Suite("Errors: limits")
struct LimitTests {
    static let levels = 10_000

    /// An input that nests `LimitTests.levels` deep: `prefix` repeated, then `middle`, then `suffix`
    /// repeated. `column` is where the 129th level, one past the limit, begins.
    struct Nesting: Sendable, CustomTestStringConvertible {
        var prefix: String
        var middle = ""
        var suffix = ""
        var column: Int

        var source: String {
            String(repeating: prefix, count: levels) + middle + String(repeating: suffix, count: levels)
        }

        var testDescription: String { prefix + middle + suffix }
    }

    @Test(arguments: [
        Nesting(prefix: "[", suffix: "]", column: 128 + 1),
        Nesting(prefix: "(", middle: "1", suffix: ")", column: 128 + 1),
        Nesting(prefix: "{a:", middle: "1", suffix: "}", column: 128 * 3 + 1),
        Nesting(prefix: "len(", middle: "1", suffix: ")", column: 128 * 4 + 1),
        Nesting(prefix: "map($, x => ", middle: "x", suffix: ")", column: 128 * 12 + 1),
        // `[1]` inside the 128th call is the 129th level.
        Nesting(prefix: "map([1], x => ", middle: "x", suffix: ")", column: 127 * 14 + 5),
        Nesting(prefix: "state.xs[", middle: "0", suffix: "]", column: 128 * 9 + 9),
        Nesting(prefix: "-", middle: "1", column: 128 + 1),
        Nesting(prefix: "! ", middle: "true", column: 128 * 2 + 1),
        Nesting(prefix: "true ? ", middle: "1", suffix: " : 2", column: 129 * 7 + 1),
        Nesting(prefix: "null ?? ", middle: "1", column: 129 * 8 + 1),
        // The `0` of the 129th `false ? 0 : ` is one level below the 128th.
        Nesting(prefix: "false ? 0 : ", middle: "1", column: 128 * 12 + 9),
        Nesting(prefix: "[(-", column: 128 + 1),
        Nesting(prefix: #""\("#, middle: "1", suffix: #")""#, column: 32 * 3 + 2),
    ])
    func tenThousandNestedLevelsAreAnErrorNotACrash(_ nesting: Nesting) throws {
        let source = nesting.source
        let error = try #require(expressionError(of: source))
        let limit = nesting.prefix.hasPrefix("\"") ? 32 : 128  // interpolations nest at most 32 deep
        #expect(Problem(error, in: source) == Problem("expression nested too deeply; the limit is \(limit) levels", column: nesting.column))
    }

    @Test func oneHundredTwentyEightLevelsAreFine() throws {
        let brackets = String(repeating: "[", count: 128) + String(repeating: "]", count: 128)
        #expect(try Expression(brackets).evaluate().description == brackets)
        let calls = String(repeating: "len([", count: 64) + String(repeating: "])", count: 64)  // a call and an array per pair
        #expect(try literal(of: calls) == "1")
        let lambdas = String(repeating: "map($, x => ", count: 128) + "x" + String(repeating: ")", count: 128)
        #expect(try Expression(lambdas).evaluate(Bindings(input: [1])).nestingDepth(upTo: 500) == 128)
        let negations = String(repeating: "-", count: 128) + "1"
        #expect(try literal(of: negations) == "1")
    }

    @Test func aLongChainOfOperatorsIsAnErrorNotACrash() {
        let source = Array(repeating: "1", count: Self.levels).joined(separator: "+")
        #expect(problem(of: source) == Problem("expression nested too deeply; the limit is 512 levels", column: 1))
        let members = "state" + String(repeating: ".a", count: Self.levels)
        #expect(problem(of: members) == Problem("expression nested too deeply; the limit is 512 levels", column: 1))
        let comparisons = Array(repeating: "1", count: Self.levels).joined(separator: " == ")
        #expect(problem(of: comparisons) == Problem("expression nested too deeply; the limit is 512 levels", column: 1))
    }

    @Test func aChainOfFiveHundredTwelveIsFine() throws {
        #expect(try literal(of: Array(repeating: "1", count: 512).joined(separator: "+")) == "512")
        #expect(try literal(of: Array(repeating: "true", count: 512).joined(separator: " && ")) == "true")
        #expect(try literal(of: "state" + String(repeating: "?.a", count: 511)) == "null")
    }

    @Test func aValueCannotNestWithoutEnd() {
        let source = "reduce(range(100000), [], (acc, x) => [acc])"
        #expect(problem(of: source) == Problem("the nesting of the result is too large in '\(source)'; the limit is 512", column: 1))
        // 511 wraps around [] nest 512 levels: just allowed.
        #expect(expressionError(of: "len(str(reduce(range(511), [], (acc, x) => [acc])))") == nil)
        #expect(problem(of: "reduce(range(512), {}, (acc, x) => {a: acc})")?.message.hasPrefix("the nesting of the result is too large") == true)
        // A reduce inside a reduce is held to the limit too.
        #expect(problem(of: "reduce(range(100), [], (acc, x) => reduce(range(100), acc, (a, y) => [a]))")?.column == 36)
    }

    @Test func valueNestingDepth() {
        #expect(Value.int(1).nestingDepth(upTo: 10) == 0)
        #expect(Value.array([]).nestingDepth(upTo: 10) == 1)
        #expect(Value(dictionaryLiteral: ("a", [1, [2]]), ("b", 3)).nestingDepth(upTo: 10) == 3)
        var deep: Value = 0
        for _ in 0..<100 { deep = [deep] }
        #expect(deep.nestingDepth(upTo: 1000) == 100)
        #expect(deep.nestingDepth(upTo: 20) == 21)
    }

    @Test func hugeResultsAreRefused() {
        #expect(problem(of: "range(1000001)") == Problem("the range is too large in 'range(1000001)'; the limit is 1000000", column: 1))
        let doubling = "reduce(range(30), 'ab', (s, i) => s + s)"
        #expect(problem(of: doubling) == Problem("the string is too large in 's + s'; the limit is 16777216", column: 35))
        let interpolated = #"reduce(range(30), 'ab', (s, i) => "\(s)\(s)")"#
        #expect(problem(of: interpolated) == Problem(#"the string is too large in '"\(s)\(s)"'; the limit is 16777216"#, column: 35))
    }
}
