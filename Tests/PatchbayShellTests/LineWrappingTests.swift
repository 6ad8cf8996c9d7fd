import Testing
@_spi(Shell) @testable import PatchbayShell

/// Lines wider than the terminal break at blanks, never inside a word that fits on a row.
struct LineWrappingTests {
    /// The words of `rows` joined again, without the blanks that broke them.
    private func words(_ rows: [String]) -> [Substring] {
        rows.flatMap { $0.split(separator: " ") }
    }

    @Test func aLineThatFitsIsKeptAsItIs() {
        #expect(LineWrapping.rows(of: "  a    b  ", width: 10) == ["  a    b  "])
        #expect(LineWrapping.rows(of: "", width: 10) == [""])
        let line = OutputLine("short", to: .error)
        #expect(line.wrapped(toWidth: 80) == [line])
    }

    @Test func aLongLineBreaksBeforeTheWordThatWouldCrossTheWidth() {
        #expect(LineWrapping.rows(of: "replace the name here", width: 12) == ["replace the", "  name here"])
        #expect(LineWrapping.rows(of: "aaaa bbbb cccc", width: 9) == ["aaaa bbbb", "  cccc"])
    }

    @Test(arguments: [80, 100])
    func noWordIsCutAtTheWidthOfATerminal(width: Int) {
        let text = "#16 addItem {name: 'Wireless keyboard with a numeric keypad', price: 129.99, quantity: 3, "
            + "tags: ['office', 'peripherals', 'bluetooth']} changed cart.items[15].name, cart.total from 1234.56 to 1364.55"
        let rows = LineWrapping.rows(of: text, width: width)
        #expect(rows.count > 1)
        #expect(rows.allSatisfy { $0.count <= width }, "\(rows)")
        #expect(words(rows) == text.split(separator: " "), "a word was cut: \(rows)")
        #expect(rows.dropFirst().allSatisfy { $0.hasPrefix("  ") && !$0.hasPrefix("   ") })
    }

    @Test func onlyAWordLongerThanARowIsCut() {
        #expect(LineWrapping.rows(of: "ab 0123456789abcdef xy", width: 10) == ["ab", "  01234567", "  89abcdef", "  xy"])
    }

    @Test func continuationRowsKeepTheLinesIndentationAndTwoMore() {
        #expect(LineWrapping.rows(of: "    one two three", width: 12) == ["    one two", "      three"])
        // The indentation takes at most half the width.
        #expect(LineWrapping.rows(of: "        one two", width: 12) == ["        one", "      two"])
    }

    @Test func blanksInsideARowStayAndBlanksAtABreakGo() {
        #expect(LineWrapping.rows(of: "a  b     c", width: 6) == ["a  b", "  c"])
    }

    @Test func colourEscapesTakeNoRoomAndWideCharactersTakeTwo() {
        let red = "\u{1B}[31m", plain = "\u{1B}[0m"
        let coloured = "\(red)removed\(plain) one two"
        #expect(LineWrapping.rows(of: coloured, width: 11) == ["\(red)removed\(plain) one", "  two"])
        #expect(LineWrapping.rows(of: "日本語 ab", width: 8) == ["日本語", "  ab"])
        #expect(LineWrapping.rows(of: "日本語 a", width: 8) == ["日本語 a"])
    }

    @Test func aLineWithNewlinesWrapsEachOfItsRows() {
        let line = OutputLine("one two\nthree four", to: .error)
        #expect(line.wrapped(toWidth: 7) == [OutputLine("one two", to: .error), OutputLine("three", to: .error), OutputLine("  four", to: .error)])
    }

    /// Long output counts its wrapped rows, so the pager takes what would not fit.
    @Test func theRowsCountedForThePagerAreTheWrappedRows() {
        let line = OutputLine("aaaa bbbb cccc")
        #expect(OutputLine.rows(of: [line], width: 9, moreThan: 1))
        #expect(!OutputLine.rows(of: [line], width: 9, moreThan: 2))
    }
}
