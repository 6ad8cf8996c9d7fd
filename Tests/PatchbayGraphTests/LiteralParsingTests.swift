@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
import Testing

// Literals: JSON, plus 'single-quoted' strings, unquoted object keys ({title: "x"}),
// trailing commas. String interpolation: "count is \(state.count)".

@Suite("Literals: JSON scalars")
struct JSONScalarLiteralTests {
    @Test func nullTrueAndFalse() throws {
        #expect(try Expression("null").evaluate() == .null)
        #expect(try Expression("true").evaluate() == .bool(true))
        #expect(try Expression("false").evaluate() == .bool(false))
    }

    @Test(arguments: [
        ("0", 0), ("42", 42), ("-7", -7), ("-0", 0),
        ("9223372036854775807", Int.max),
        ("-9223372036854775808", Int.min),
    ])
    func integersAreSixtyFourBitInts(_ source: String, _ expected: Int) throws {
        guard case .int(let value) = try Expression(source).evaluate() else {
            Issue.record("\(source) is not an int")
            return
        }
        #expect(value == expected)
    }

    @Test(arguments: [
        ("1.5", 1.5), ("-2.25", -2.25), ("1.0", 1.0), ("0.5", 0.5),
        ("1e3", 1000), ("1E3", 1000), ("2.5e-3", 0.0025), ("1e+2", 100), ("-1.5e2", -150),
    ])
    func numbersWithAFractionOrAnExponentAreDecimals(_ source: String, _ expected: Double) throws {
        guard case .decimal(let value) = try Expression(source).evaluate() else {
            Issue.record("\(source) is not a decimal")
            return
        }
        #expect(value == expected)
    }

    @Test func aDecimalWithoutFractionStaysADecimal() throws {
        #expect(try literal(of: "1.0") == "1.0")
        #expect(try literal(of: "1e3") == "1000.0")
        #expect(try Expression("1.0").evaluate().typeName == "decimal")
        #expect(try Expression("1").evaluate().typeName == "int")
    }
}

@Suite("Literals: strings")
struct StringLiteralTests {
    @Test(arguments: [
        (#""plain""#, "plain"),
        (#""""#, ""),
        (#""quote \" backslash \\ slash \/""#, #"quote " backslash \ slash /"#),
        (#""a\nb\tc\rd""#, "a\nb\tc\rd"),
        (#""\b\f""#, "\u{08}\u{0C}"),
        (#""\u00e9\u00E9""#, "éé"),
        (#""\u0041\u0000""#, "A\u{0}"),
        (#""\ud83d\ude00""#, "😀"),
        (#""\uD83D\uDE00""#, "😀"),
        (#""\u{1F600}\u{e9}\u{41}""#, "😀éA"),
        (#""\0""#, "\u{0}"),
        (#""it\'s""#, "it's"),
        (#""héllo wörld 😀""#, "héllo wörld 😀"),
    ])
    func everyJSONEscapeAndSwiftStyleUnicodeEscape(_ source: String, _ expected: String) throws {
        #expect(try Expression(source).evaluate() == .string(expected))
    }

    @Test func singleQuotedStringsTakeDoubleQuotesAsIs() throws {
        #expect(try Expression(#"'say "hi"'"#).evaluate() == .string(#"say "hi""#))
        #expect(try Expression(#"'it\'s'"#).evaluate() == .string("it's"))
        #expect(try Expression(#"'tab\there'"#).evaluate() == .string("tab\there"))
    }

    @Test func aBackslashBeforeANewlineContinuesTheString() throws {
        #expect(try Expression("\"one \\\ntwo\"").evaluate() == .string("one two"))
    }

    @Test func aLargeStringLiteralWorks() throws {
        let text = String(repeating: "abcdefghij", count: 1_000_000)  // 10 MB
        let value = try Expression("\"\(text)\"").evaluate()
        #expect(value == .string(text))
        #expect(try Expression("len(\"\(text)\")").evaluate() == .int(10_000_000))
    }
}

@Suite("Literals: arrays and objects")
struct CompositeLiteralTests {
    @Test func arraysKeepTheirOrderAndMayEndInAComma() throws {
        #expect(try literal(of: "[]") == "[]")
        #expect(try literal(of: "[1, 2.5, 'three', null, true]") == #"[1, 2.5, "three", null, true]"#)
        #expect(try literal(of: "[1, 2, 3,]") == "[1, 2, 3]")
    }

    @Test func objectKeysMayBeNamesOrEitherKindOfString() throws {
        #expect(try literal(of: #"{title: "x", "quoted": 1, 'single': 2, "with space": 3}"#)
            == #"{title: "x", quoted: 1, single: 2, "with space": 3}"#)
    }

    @Test func objectsMayEndInAComma() throws {
        #expect(try literal(of: "{a: 1, b: 2,}") == "{a: 1, b: 2}")
    }

    @Test func objectKeysKeepTheOrderTheyWereWrittenIn() throws {
        let value = try Expression("{zebra: 1, apple: 2, mango: 3}").evaluate()
        guard case .object(let members) = value else {
            Issue.record("not an object: \(value)")
            return
        }
        #expect(Array(members.keys) == ["zebra", "apple", "mango"])
    }

    @Test func aRepeatedKeyTakesTheLastValueAtTheFirstPosition() throws {
        #expect(try literal(of: "{a: 1, b: 2, a: 3}") == "{a: 3, b: 2}")
    }

    @Test func valuesNest() throws {
        let source = #"{user: {name: "Max", tags: ["a", {deep: [1, [2, [3]]]}]}, empty: {}, list: []}"#
        #expect(try literal(of: source) == source)
    }

    @Test func bracketsMaySpanLines() throws {
        #expect(try literal(of: "[\n  1,\n  2,\n]") == "[1, 2]")
        #expect(try literal(of: "{\n  a: 1,\n  b: [\n    2\n  ]\n}") == "{a: 1, b: [2]}")
    }

    @Test func elementsAreExpressions() throws {
        #expect(try literal(of: "[state.count, state.count * 2, {n: state.user.name}]") == #"[2, 4, {n: "Max"}]"#)
    }
}

@Suite("Literals: string interpolation")
struct StringInterpolationTests {
    @Test func interpolatesAnExpression() throws {
        #expect(try literal(of: #""count is \(state.count)""#) == #""count is 2""#)
    }

    @Test func interpolatesSeveralExpressionsAndText() throws {
        #expect(try literal(of: #""\(state.user.name) has \(len(state.items)) items, \(state.count * 1.5) kg""#)
            == #""Max has 2 items, 3.0 kg""#)
    }

    @Test func stringsInsideInterpolationsNest() throws {
        #expect(try literal(of: #""outer \("inner \(state.user.name + "!")")""#) == #""outer inner Max!""#)
        #expect(try literal(of: #""\('single' + "double")""#) == #""singledouble""#)
    }

    @Test func nonStringValuesAreInterpolatedAsLiterals() throws {
        #expect(try literal(of: #""\(state.user) \(state.xs) \(null) \(1.0)""#) == #""{name: \"Max\"} [1, 2, 3] null 1.0""#)
    }

    @Test func aParenthesisInsideTheInterpolationDoesNotCloseIt() throws {
        #expect(try literal(of: #""\((1 + 2) * 3)""#) == #""9""#)
    }

    @Test func interpolationsMaySpanLinesAndUseLambdaParameters() throws {
        #expect(try literal(of: "\"\\(\n  state.count\n)\"") == #""2""#)
        #expect(try literal(of: ##"map(state.xs, x => "#\(x)")"##) == ##"["#1", "#2", "#3"]"##)
    }

    @Test func singleQuotedStringsInterpolateToo() throws {
        #expect(try literal(of: #"'n=\(state.count)'"#) == #""n=2""#)
    }

    @Test func anInterpolatedStringIsNotAnObjectKey() {
        #expect(problem(of: #"{"\(1)": 2}"#) == Problem("expected a key, found an interpolated string", column: 2))
    }
}

@Suite("Printing values")
struct ValuePrintingTests {
    @Test func descriptionIsAPatchbayLiteral() {
        let value: Value = ["count": 2, "user": ["name": "Max"]]
        #expect(value.description == #"{count: 2, user: {name: "Max"}}"#)
    }

    @Test(arguments: [
        (Value.decimal(1), "1.0"), (.decimal(-0.5), "-0.5"), (.decimal(2.5e-8), "2.5e-08"),
        (.decimal(1e21), "1e+21"), (.int(1), "1"), (.int(Int.min), "-9223372036854775808"),
    ])
    func decimalsAlwaysShowAFractionOrAnExponent(_ value: Value, _ text: String) {
        #expect(value.description == text)
    }

    @Test func keysThatAreNotNamesAreQuoted() {
        let value: Value = ["a b": 1, "1x": 2, "": 3, "ok_1": 4, "é": 5]
        #expect(value.description == #"{"a b": 1, "1x": 2, "": 3, ok_1: 4, "é": 5}"#)
    }

    @Test func stringsAreQuotedWithEscapes() {
        let value = Value.string("say \"hi\"\\\n\t\r\u{08}\u{0C}\u{01}\u{7F} é 😀")
        #expect(value.description == #""say \"hi\"\\\n\t\r\b\f\u0001\u007f é 😀""#)
    }

    @Test func emptyContainers() {
        #expect(Value.emptyObject.description == "{}")
        #expect(Value.array([]).description == "[]")
        #expect(Value.null.description == "null")
    }

    @Test func jsonTextIsCompactJSONWithQuotedKeys() {
        let value: Value = ["count": 2, "user": ["name": "Max", "tags": ["a", nil]], "ratio": 1.0, "ok": true]
        #expect(value.jsonText == #"{"count":2,"user":{"name":"Max","tags":["a",null]},"ratio":1.0,"ok":true}"#)
    }

    @Test func jsonTextEscapesStrings() {
        #expect(Value.string("a\"b\\c\nd\u{01}").jsonText == #""a\"b\\c\nd\u0001""#)
    }

    @Test(arguments: [
        "null", "true", "-9223372036854775808", "9223372036854775807", "0.1", "-0.0", "1e+300", "2.5e-08",
        #""quotes \" and \\ and \n and \u0001 and 😀""#,
        #"{a: [1, 2.0, {"b c": null}], "": {}, d: []}"#,
    ])
    func aPrintedValueReadsBackAsTheSameValue(_ source: String) throws {
        let printed = try Expression(source).evaluate().description
        #expect(printed == source)
        #expect(try Expression(printed).evaluate().description == printed)
    }
}
