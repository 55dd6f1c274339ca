package io.batchyard.client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** A token kept in a file (first non-blank line; a leading "Bearer " is dropped), read on every call. */
final class TokenFile implements TokenSource {

    private final Path file;

    TokenFile(Path file) {
        this.file = file;
    }

    @Override
    public String token() {
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                String t = line.trim();
                if (!t.isEmpty()) {
                    return t.regionMatches(true, 0, "Bearer ", 0, 7) ? t.substring(7).trim() : t;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the token file " + file, e);
        }
        throw new IllegalStateException("the token file " + file + " is empty");
    }
}
