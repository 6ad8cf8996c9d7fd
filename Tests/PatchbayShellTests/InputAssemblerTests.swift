@_spi(Shell) import PatchbayShell
import Testing

@Suite("Joining lines into commands")
struct InputAssemblerTests {
    @Test func aCompleteLineIsACommand() {
        var assembler = InputAssembler()
        #expect(assembler.add("= 1 + 2") == "= 1 + 2")
        #expect(!assembler.isPending)
    }

    @Test(arguments: ["= [1,", "= {a: 1,", "= len(", "= \"open string"])
    func anOpenBracketOrStringContinues(firstLine: String) {
        var assembler = InputAssembler()
        #expect(assembler.add(firstLine) == nil)
        #expect(assembler.isPending)
        #expect(assembler.openConstruct != nil)
    }

    @Test func theCommandSpansTheLinesThatCloseIt() {
        var assembler = InputAssembler()
        #expect(assembler.add("= [1,") == nil)
        #expect(assembler.add("  2,") == nil)
        #expect(assembler.add("]") == "= [1,\n  2,\n]")
    }

    @Test func aTrailingBackslashContinuesTheLine() {
        var assembler = InputAssembler()
        #expect(assembler.add("= 1 + \\  ") == nil)
        #expect(assembler.openConstruct == "a line continued with '\\'")
        #expect(assembler.add("2") == "= 1 + \\\n2")
    }

    @Test func aBackslashContinuedCommandRuns() {
        var assembler = InputAssembler()
        _ = assembler.add("= 1 + \\")
        let command = assembler.add("2")!
        #expect(Shell.scratch().execute(command).lines == [OutputLine("3")])
    }

    @Test func aBracketInsideAStringDoesNotCount() {
        var assembler = InputAssembler()
        #expect(assembler.add("= \"(\" + '['") == "= \"(\" + '['")
    }

    @Test func interpolationParenthesesAreTracked() {
        var assembler = InputAssembler()
        #expect(assembler.add("= \"a \\(len(\"x)\")) b\"") == "= \"a \\(len(\"x)\")) b\"")
        #expect(assembler.add("= \"a \\(1 +") == nil)
        #expect(assembler.add("2) b\"") == "= \"a \\(1 +\n2) b\"")
    }

    @Test func aHashAtTheStartOfAWordStartsAComment() {
        var assembler = InputAssembler()
        #expect(assembler.add("# only a comment") == "")
        #expect(assembler.add("= 1 # one") == "= 1 ")
        #expect(assembler.add("= [1, # first") == nil)
        #expect(assembler.add("2]") == "= [1, \n2]")
    }

    @Test func aHashInsideAWordOrStringIsKept() {
        var assembler = InputAssembler()
        #expect(assembler.add("route tests://a/b#frag") == "route tests://a/b#frag")
        #expect(assembler.add("= \"a # b\"") == "= \"a # b\"")
    }

    @Test func resetDropsAPendingCommand() {
        var assembler = InputAssembler()
        _ = assembler.add("= [1,")
        assembler.reset()
        #expect(!assembler.isPending)
        #expect(assembler.add("= 2") == "= 2")
    }
}
