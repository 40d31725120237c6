package io.github.mongoredact.jmh.report;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JsonTest {

    @Test
    @SuppressWarnings("unchecked")
    void readsWhatJmhWrites() {
        Object value = Json.parse("[{\"benchmark\": \"a.B.m\", \"params\": {\"count\": \"10\"}, \"primaryMetric\": "
                + "{\"score\": 1.5E3, \"scoreError\": NaN, \"rawData\": [[1, -2.5e-1]]}, \"ok\": true, \"none\": null, "
                + "\"text\": \"q\\\"\\u00e9\\n\"}]");
        Map<String, Object> r = (Map<String, Object>) ((List<Object>) value).get(0);
        assertEquals("a.B.m", r.get("benchmark"));
        Map<String, Object> primary = (Map<String, Object>) r.get("primaryMetric");
        assertEquals(1500.0, primary.get("score"));
        assertTrue(((Double) primary.get("scoreError")).isNaN());
        assertEquals(Arrays.asList(Arrays.asList(1.0, -0.25)), primary.get("rawData"));
        assertEquals(Boolean.TRUE, r.get("ok"));
        assertTrue(r.containsKey("none") && r.get("none") == null);
        assertEquals("q\"\u00e9\n", r.get("text"));
    }

    @Test
    void malformedInputSaysWhere() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Json.parse("{\"a\" 1}"));
        assertTrue(e.getMessage().contains("position 5"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Json.parse("[1] x"));
    }

    @Test
    void quotesRoundTrip() {
        String s = "a\"b\\c\u0001";
        assertEquals(s, Json.parse(Json.quote(s)));
    }
}
