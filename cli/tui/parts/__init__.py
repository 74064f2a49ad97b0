"""What the screens are composed of: the events panel, the lines under the hand, the
seats, the chat, the lobby's terms and seats, why a game stopped, and the drawing basics
(styled cards and rows, the colours by class name)."""
