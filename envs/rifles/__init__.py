"""Rifles series solo system with the Urban Warfare module (and, later, Rifles in the Darkness)."""
