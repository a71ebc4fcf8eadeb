import Foundation

extension DemoSite {
    /// The words of the sample articles: sections, headlines and summaries
    /// made from fixed lists, so the page reads like a paper and never changes.
    enum Copy {
        static let sections = ["Outdoors", "Science", "Travel", "Climate", "Culture", "Local"]

        private static let places = [
            "the northern lakes", "the alpine pass", "the old forest", "the river delta", "the coastal dunes",
            "the high meadows", "the valley vineyards", "the island ferry route", "the canyon trail",
            "the orchard towns", "the glacier park", "the moorland reserve",
        ]

        private static let headlines = [
            "Record visitors at %@ as spring arrives early",
            "Scientists map hidden springs beneath %@",
            "A quiet weekend in %@, with no phone signal at all",
            "Rangers reopen %@ after a winter of repairs",
            "Photographers gather at dawn to catch the light over %@",
            "Night-sky tourism takes off around %@",
            "Volunteers plant ten thousand trees along %@",
            "How %@ became the region's favourite day trip",
        ]

        private static let summaries = [
            "Early mornings are clear and cool; locals say the best views come before the crowds,"
                + " and the cafés open at seven.",
            "A two-year survey found water older than anyone expected."
                + " The team now wants to measure how fast it is replaced.",
            "Trails are marked, the huts are stocked and the guides are back."
                + " Bring layers: the weather turns within the hour.",
            "The new footbridge is wider and lower, so families with buggies can finally reach the viewpoint"
                + " without a detour.",
            "Council members will vote next month on a plan to limit cars on summer weekends"
                + " and add a shuttle from the station.",
            "Birdwatchers counted forty species in a single afternoon,"
                + " including two that had not been seen here for a decade.",
        ]

        private static let authors = [
            "Mira Okafor", "Tomás Lindqvist", "Ana Ribeiro", "Jonah Weiss", "Priya Nair", "Léa Marchand",
        ]

        /// The section, headline, summary and byline of article `number` (0-based).
        static func article(_ number: Int) -> (section: String, headline: String, summary: String, byline: String) {
            let place = places[number % places.count]
            let template = headlines[(number * 5 + number / places.count) % headlines.count]
            var headline = template.replacingOccurrences(of: "%@", with: place)
            headline = headline.prefix(1).uppercased() + headline.dropFirst()
            return (
                sections[number % sections.count], headline, summaries[(number * 7) % summaries.count],
                "\(authors[(number * 3) % authors.count]) · \(number % 9 + 1) min read"
            )
        }
    }
}
