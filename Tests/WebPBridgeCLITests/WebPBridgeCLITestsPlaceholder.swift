// Package.swift declares this test target; SwiftPM refuses to build any target
// while its folder is missing. The CLI's own tests replace this file.
