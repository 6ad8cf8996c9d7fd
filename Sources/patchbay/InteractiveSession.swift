import PatchbayShell

/// The interactive shell on a terminal (placeholder until the libedit line editor lands).
struct InteractiveSession {
    let shell: Shell
    let historyFile: String?
    let output: OutputWriter

    func run() {
        var assembler = InputAssembler()
        while !shell.hasQuit {
            print(assembler.isPending ? "...> " : "patchbay> ", terminator: "")
            output.flush()
            guard let line = readLine() else { break }
            guard let command = assembler.add(line) else { continue }
            shell.execute(command).lines.forEach(output.write)
        }
    }
}
