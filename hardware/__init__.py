"""Camera, LED strip and buttons: real Raspberry Pi drivers and faithful simulators."""
