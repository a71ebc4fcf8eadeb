/// The text files of the demo site: the front page, its stylesheet and its
/// script. The script also carries the end-to-end check that `e2e/run.sh`
/// reads (see ``script``).
enum DemoPage {
    /// The front page: a masthead, a lead story, a grid of article cards and
    /// a footer of partner logos. Every image is an `<img>` with its size, so
    /// the layout does not jump while photos arrive.
    static func html(_ manifest: DemoSite.Manifest) -> String {
        var cards = ""
        for (index, article) in manifest.articles.enumerated() {
            let lead = index == 0 ? " card-lead" : ""
            cards += """
                    <article class="card\(lead)">
                      <img src="\(article.photoPath)" width="\(article.photoWidth)" height="\(article.photoHeight)" \
                alt="\(escape(article.headline))">
                      <div class="card-body">
                        <span class="section">\(escape(article.section))</span>
                        <h2>\(escape(article.headline))</h2>
                        <p>\(escape(article.summary))</p>
                        <span class="byline">\(escape(article.byline))</span>
                      </div>
                    </article>

                """
        }
        let masthead = manifest.logoPaths.first ?? ""
        let partners = manifest.logoPaths.dropFirst().map { path in
            "      <img src=\"\(path)\" width=\"240\" height=\"96\" alt=\"partner logo\">"
        }.joined(separator: "\n")
        return """
            <!doctype html>
            <html lang="en">
            <head>
              <meta charset="utf-8">
              <meta name="viewport" content="width=device-width, initial-scale=1">
              <title>The Daily Meadow — front page</title>
              <link rel="stylesheet" href="/static/site.css">
              <script src="/static/site.js" defer></script>
            </head>
            <body>
              <header class="masthead">
                <img class="emblem" src="\(masthead)" width="192" height="192" alt="The Daily Meadow">
                <div class="title">
                  <h1>The Daily Meadow</h1>
                  <p class="tagline">News from the hills, the lakes and the trails</p>
                </div>
                <div class="live"><img src="\(manifest.animationPath)" width="128" height="128" alt="live"><span>Live \
            updates</span></div>
              </header>
              <nav class="sections">\(DemoSite.Copy.sections.map { "<a href=\"#\">\($0)</a>" }.joined())</nav>
              <figure class="scene"><img src="\(manifest.photoAnimationPath)" width="480" height="270" \
            alt="A slow pan over the lake at dawn"><figcaption>Watch: dawn over the lake, from our live camera\
            </figcaption></figure>
              <main class="grid">
            \(cards)  </main>
              <footer>
                <p>With thanks to our partners</p>
                <div class="partners">
            \(partners)
                </div>
                <p class="small">A sample site built by <code>webp-bridge demo</code>: every photo is a full-size \
            JPEG, as a CMS publishes it.</p>
              </footer>
            </body>
            </html>

            """
    }

    static let stylesheet = """
        :root { --ink: #1d2327; --muted: #5f6b73; --paper: #f6f4ef; --card: #fff; --accent: #2f7d5b; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 16px/1.5 Georgia, "DejaVu Serif", serif; color: var(--ink); background: var(--paper); }
        .masthead { display: flex; align-items: center; gap: 24px; max-width: 1240px; margin: 0 auto; \
        padding: 24px 24px 8px; }
        .emblem { width: 88px; height: 88px; }
        .title h1 { margin: 0; font-size: 44px; letter-spacing: -0.5px; }
        .tagline { margin: 0; color: var(--muted); font-style: italic; }
        .live { margin-left: auto; display: flex; align-items: center; gap: 8px; \
        font: 600 14px/1 system-ui, sans-serif; color: #b3541e; }
        .live img { width: 48px; height: 48px; }
        .scene { max-width: 1240px; margin: 0 auto 16px; padding: 0 24px; }
        .scene img { width: 100%; max-width: 480px; height: auto; display: block; }
        .scene figcaption { color: var(--muted); font-style: italic; }
        .sections { max-width: 1240px; margin: 0 auto 16px; padding: 8px 24px; border-top: 3px solid var(--ink); \
        border-bottom: 1px solid #d8d3c8;
          display: flex; gap: 20px; font: 600 14px/1.6 system-ui, sans-serif; text-transform: uppercase; \
        letter-spacing: 0.06em; }
        .sections a { color: var(--ink); text-decoration: none; }
        .grid { max-width: 1240px; margin: 0 auto; padding: 0 24px 32px; display: grid; gap: 24px;
          grid-template-columns: repeat(auto-fill, minmax(270px, 1fr)); }
        .card { background: var(--card); border-radius: 6px; overflow: hidden; box-shadow: 0 1px 3px rgba(0,0,0,.08); \
        display: flex; flex-direction: column; }
        .card img { width: 100%; height: auto; aspect-ratio: 3 / 2; object-fit: cover; display: block; \
        background: #ddd; }
        .card-body { padding: 14px 16px 18px; display: flex; flex-direction: column; gap: 6px; }
        .card h2 { margin: 0; font-size: 20px; line-height: 1.25; }
        .card p { margin: 0; color: var(--muted); font-size: 15px; }
        .section { font: 700 12px/1 system-ui, sans-serif; color: var(--accent); text-transform: uppercase; \
        letter-spacing: 0.08em; }
        .byline { font: 13px/1.4 system-ui, sans-serif; color: var(--muted); margin-top: auto; }
        .card-lead { grid-column: 1 / -1; flex-direction: row; }
        .card-lead img { width: 62%; aspect-ratio: 16 / 9; }
        .card-lead .card-body { justify-content: center; padding: 24px 28px; }
        .card-lead h2 { font-size: 32px; }
        footer { max-width: 1240px; margin: 0 auto; padding: 24px; border-top: 1px solid #d8d3c8; color: var(--muted); \
        text-align: center; }
        .partners { display: flex; justify-content: center; gap: 32px; flex-wrap: wrap; }
        .partners img { width: 160px; height: auto; }
        .small { font-size: 13px; }
        @media (max-width: 700px) { .card-lead { flex-direction: column; } .card-lead img { width: 100%; } \
        .live span { display: none; } }

        """

    /// Marks the page as loaded and, when the page's URL has `?e2e`, writes
    /// a check into the DOM once every image has settled: for each `<img>`
    /// its URL, `naturalWidth`, and the `Content-Type` it arrived with (from
    /// Resource Timing's `contentType`), as JSON in `<pre id="e2e-result">`.
    /// `chromium --headless --dump-dom` prints the DOM, so a shell script can
    /// read the verdict without a WebDriver.
    static let script = """
        "use strict";
        document.documentElement.classList.add("js");
        function settle(img) {
          return img.complete ? Promise.resolve() : new Promise(function (done) {
            img.addEventListener("load", done, { once: true });
            img.addEventListener("error", done, { once: true });
          });
        }
        window.addEventListener("load", function () {
          if (!/[?&]e2e\\b/.test(location.search)) return;
          var images = Array.prototype.slice.call(document.images);
          Promise.all(images.map(settle)).then(function () {
            var timing = {};
            performance.getEntriesByType("resource").forEach(function (entry) {
              timing[entry.name] = { contentType: entry.contentType || "", bytes: entry.encodedBodySize || 0 };
            });
            var result = images.map(function (img) {
              var seen = timing[img.currentSrc] || {};
              return { src: img.currentSrc, naturalWidth: img.naturalWidth,
                       contentType: seen.contentType || "", bytes: seen.bytes || 0 };
            });
            var pre = document.createElement("pre");
            pre.id = "e2e-result";
            pre.textContent = JSON.stringify(result);
            document.body.appendChild(pre);
          });
        });

        """

    /// Escapes text for HTML content and attribute values.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
