import PatchbayHost

Patchbay.main()
