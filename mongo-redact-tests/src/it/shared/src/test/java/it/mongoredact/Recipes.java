package it.mongoredact;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Keeps real output under target/recipes for the documentation (docs/spring-boot.md quotes it). */
final class Recipes {
    private Recipes() {
    }

    static void write(final String name, final String text) {
        Path file = Path.of("target", "recipes", "boot-" + BootLine.NAME + "-" + name + ".txt");
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
