@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph

extension Shell {
    func run(_ command: RouteCommand, text: String) throws(ShellError) -> CommandResult {
        let whole = 0..<text.utf8.count
        switch command {
        case .add(let patternName, let view, let option, let priority, let condition):
            let pattern: RoutePattern
            do { pattern = try RoutePattern(patternName.text) } catch {
                throw ShellError(.graph(.routing(error, text: patternName.text)), at: Self.shift(error.range, into: patternName.range))
            }
            let addition = graph.addRoute(pattern, view: view?.text, option: option ?? .push, priority: priority, when: condition)
            return CommandResult(RouteAdded(pattern: pattern.text, view: view?.text, option: option ?? .push, priority: priority,
                                            addition: addition))
        case .navigate(let url, let extra, let option):
            var values: [String: Value] = [:]
            for (name, expression) in extra { values[name.text] = try evaluate(expression, in: text) }
            let navigation = try routing(url) { () throws(GraphError) in
                try graph.navigate(to: url.text, extra: values, option: option)
            }
            return CommandResult(Navigated(navigation: navigation))
        case .explain(let url):
            let explanation = try routing(url) { () throws(GraphError) in try graph.explainRoute(url.text) }
            return CommandResult(RouteExplained(explanation: explanation))
        case .list:
            return CommandResult(RouteListing(routes: graph.routeSummaries))
        case .remove(let pattern, let selector):
            let whole = pattern.range.lowerBound..<(selector?.range.upperBound ?? pattern.range.upperBound)
            let removed = try call(selector.map { [$0] } ?? [], [], whole) { () throws(GraphError) in
                try graph.removeRoute(pattern.text, selector: selector?.text)
            }
            return CommandResult(RouteRemoved(pattern: pattern.text, removed: removed))
        case .check:
            return CommandResult(RouteConflicts(conflicts: graph.routeConflicts()))
        case .presenter(let view, let condition, let live, let expression):
            let id = graph.addPresenter(for: view.text, when: condition, live: live, expression)
            return CommandResult(PresenterAdded(id: id, view: view.text, isLive: live, condition: condition))
        case .listPresenters(let view):
            return CommandResult(PresenterListing(view: view?.text, presenters: graph.presenterSummaries(for: view?.text)))
        case .removePresenter(let id):
            let removed = try call([], [], id.range) { () throws(GraphError) in try graph.removePresenter(id.text) }
            return CommandResult(PresenterRemoved(removed: removed))
        case .beginFeature(let name):
            let isNew = try call([name], [], name.range) { () throws(GraphError) in try graph.beginFeature(name.text) }
            return CommandResult(FeatureBegun(name: name.text, isNew: isNew))
        case .endFeature:
            let feature = try call([], [], whole) { () throws(GraphError) in try graph.endFeature() }
            return CommandResult(FeatureEnded(feature: feature))
        case .listFeatures:
            return CommandResult(FeatureListing(features: graph.featureSummaries))
        case .showFeature(let name):
            let feature = try call([name], [], name.range) { () throws(GraphError) in try graph.featureSummary(name.text) }
            return CommandResult(FeatureShown(feature: feature))
        case .removeFeature(let name):
            let removed = try call([name], [], name.range) { () throws(GraphError) in try graph.removeFeature(name.text) }
            return CommandResult(FeatureRemoved(name: name.text, removed: removed))
        case .stack:
            return CommandResult(StackShown(stack: graph.stack))
        case .back:
            let entry = try call([], [], whole) { () throws(GraphError) in try graph.back() }
            return CommandResult(StackShown(stack: graph.stack, closing: .back(entry)))
        case .dismiss:
            let closed = try call([], [], whole) { () throws(GraphError) in try graph.dismiss() }
            return CommandResult(StackShown(stack: graph.stack, closing: .dismissed(closed)))
        }
    }

    /// Runs `body`, which routes `url`; an error about part of the URL (a broken percent-escape)
    /// puts its caret there, any other under the whole URL.
    private func routing<T>(_ url: Name, _ body: () throws(GraphError) -> T) throws(ShellError) -> T {
        do {
            return try body()
        } catch {
            if case .routing(let routing, _) = error, !routing.range.isEmpty, routing.range.upperBound <= url.text.utf8.count {
                throw ShellError(.graph(error), at: Self.shift(routing.range, into: url.range))
            }
            throw ShellError(.graph(error), at: url.range)
        }
    }

    /// A range within a token, moved to where the token stands in the command.
    static func shift(_ range: Range<Int>, into token: Range<Int>) -> Range<Int> {
        let lower = Swift.min(token.lowerBound + range.lowerBound, token.upperBound)
        return lower..<Swift.max(lower, Swift.min(token.lowerBound + range.upperBound, token.upperBound))
    }
}
