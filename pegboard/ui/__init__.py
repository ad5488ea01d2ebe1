"""Screens and pictures: pure functions from values to PIL images (128x64, mode "1")."""
