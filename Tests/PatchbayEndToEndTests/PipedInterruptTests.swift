import Foundation
import Testing

// Issue 28, point 9: SIGINT between two lines of a piped script ends it with status 130 and an
// error naming the line it stopped at, as it does in a script file (the README promises it).

@Suite("SIGINT between the lines of a piped script")
struct PipedInterruptTests {
    @Test func sigintWhileAPipedScriptWaitsForItsNextLineNamesThatLine() throws {
        let child = try ChildProcess()
        child.feed(Array("var a = 1\n= a + 41\n".utf8), closing: false)
        #expect(child.waitUntilPrinted("42\n"))
        child.send(SIGINT)
        child.waitForExit(timeout: .seconds(60), "patchbay interrupted between two lines")
        child.closeInput()
        #expect(!child.endedBySignal)
        #expect(child.status == 130)
        #expect(child.printed == "a = 1\n42\n")
        #expect(child.printedErrors.hasPrefix("<stdin>:3:1: error: interrupted"), "\(child.printedErrors)")
        #expect(child.printedErrors.split(separator: "\n").count <= 3, "\(child.printedErrors)")
    }
}
