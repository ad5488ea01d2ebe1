"""The app: a pure state machine from input events to engine events, screens and effects."""
