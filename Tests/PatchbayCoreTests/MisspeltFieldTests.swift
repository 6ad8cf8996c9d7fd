@_spi(Shell) import PatchbayCore
import Testing

// A misspelt action field is named with the field it misspells, in every shape an action
// takes, also when the field it misspells is required (which alone would say "missing"); a
// raw value that no case of a `CaseIterable` enum has lists the cases' values.

private enum Size: String, Codable, CaseIterable {
    case small, medium, large
}

private enum Level: Int, Codable, CaseIterable {
    case low = 1, high = 9
}

/// An enum of cases with associated values (TCA-style).
private enum CartAction: Codable, Equatable {
    case addItem(name: String, price: Int)
    case resize(Size)
    case setLevel(level: Level)
}

/// A struct per action (ReSwift/VISPER-style).
private protocol ShopAction {}
private struct AddItem: Codable, ShopAction { var name: String; var price: Int }
private struct Resize: Codable, ShopAction { var size: Size }
private struct Note: Codable, ShopAction { var text: String?; var price: Int? }

/// A struct with its own `type`.
private struct TypedAdd: Codable, Equatable {
    var type = "TypedAdd"
    var name: String
    var price: Int
}

/// A struct that encodes as an object without a `type`: wrapped under `value`.
private struct Untyped: Codable, Equatable {
    var price: Int
}

private func message<Action>(_ mapping: ActionMapping<Action>, _ object: Value) -> String {
    do {
        _ = try mapping.action(from: object)
        return "(decoded)"
    } catch {
        return error.description
    }
}

@Suite("Misspelt action fields")
struct MisspeltFieldTests {
    @Test func aMisspeltRequiredFieldIsNamedInEveryShape() {
        #expect(message(ActionMapping<CartAction>.codable(), ["type": "addItem", "name": "tea", "prise": 3])
            == "addItem.prise: unknown field; did you mean 'price'?")
        let shop = ActionMapping<any ShopAction>.types([ActionType(AddItem.self), ActionType(Resize.self), ActionType(Note.self)])
        #expect(message(shop, ["type": "AddItem", "name": "tea", "prise": 3]) == "AddItem.prise: unknown field; did you mean 'price'?")
        #expect(message(shop, ["type": "Note", "prise": 3]) == "Note.prise: unknown field; did you mean 'price'?")
        #expect(message(ActionMapping<TypedAdd>.codable(), ["type": "TypedAdd", "name": "tea", "prise": 3])
            == "TypedAdd.prise: unknown field; did you mean 'price'?")
        #expect(message(ActionMapping<Untyped>.codable(), ["type": "Untyped", "value": ["prise": 3]])
            == "Untyped.value.prise: unknown field; did you mean 'price'?")
    }

    @Test func aFieldThatIsMissingWithNothingCloseIsStillMissing() {
        #expect(message(ActionMapping<CartAction>.codable(), ["type": "addItem", "name": "tea"]) == "addItem.price: missing (expected an integer)")
        #expect(message(ActionMapping<CartAction>.codable(), ["type": "addItem", "name": "tea", "zzzzz": 1])
            == "addItem.price: missing (expected an integer)")
    }

    @Test func aRawValueNoCaseHasListsTheValues() {
        let cart = ActionMapping<CartAction>.codable()
        #expect(message(cart, ["type": "resize", "_0": "medum"])
            == "resize._0: 'medum' is not a Size (values: small, medium, large); did you mean 'medium'?")
        #expect(message(cart, ["type": "setLevel", "level": 5]) == "setLevel.level: 5 is not a Level (values: 1, 9)")
        let shop = ActionMapping<any ShopAction>.types([ActionType(Resize.self)])
        #expect(message(shop, ["type": "Resize", "size": "huge"]) == "Resize.size: 'huge' is not a Size (values: small, medium, large)")
        #expect(throws: ValueCodingError(path: ["1"], message: "'big' is not a Size (values: small, medium, large)")) {
            try ValueDecoder().decode([Size].self, from: ["small", "big"])
        }
        // A value of the wrong type says so, as before.
        #expect(message(shop, ["type": "Resize", "size": 3]) == "Resize.size: expected a string, found int")
    }
}
