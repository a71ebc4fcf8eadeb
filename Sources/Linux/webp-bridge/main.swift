import WebPBridgeCLI

await WebPBridge.main()
