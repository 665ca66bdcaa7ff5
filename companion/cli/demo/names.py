"""First names for the demo players, in the app's five languages (en, de, it, fr, hu).

Every name is one word and the lists share none (compared case-insensitively, as players
are matched), so the group never holds two players of the same name.
"""

from __future__ import annotations

_NAMES = {
    "en": (
        "Oliver Amelia Harry Olivia George Isla Jack Emily Charlie Poppy Thomas Sophie James "
        "Grace William Lily Daniel Chloe Samuel Ella Joshua Hannah Benjamin Lucy Henry Alice "
        "Matthew Ruby Ethan Jessica Ryan Megan Liam Holly Noah Abigail Jacob Evie Oscar Freya "
        "Edward Rosie Alfie Imogen Archie Molly Lewis Zoe Nathan Bethany"
    ),
    "de": (
        "Lukas Hanna Leon Mia Finn Lea Jonas Lena Paul Marie Felix Laura Maximilian Sophia "
        "Tim Johanna Jan Katharina Niklas Julia Tobias Anna Florian Sarah Moritz Lisa "
        "Sebastian Franziska Stefan Sabine Jürgen Ursula Wolfgang Monika Dieter Petra Andreas "
        "Birgit Matthias Heike Uwe Gisela Klaus Renate Torsten Anke Jörg Käthe Günter Ilse"
    ),
    "it": (
        "Lorenzo Giulia Alessandro Sofia Francesco Aurora Matteo Leonardo Ginevra Riccardo "
        "Emma Gabriele Giorgia Tommaso Beatrice Edoardo Martina Marco Chiara Andrea Francesca "
        "Giuseppe Elena Luca Valentina Davide Federica Simone Alessia Stefano Silvia Paolo "
        "Paola Roberto Roberta Giovanni Serena Antonio Rosa Salvatore Carla Vincenzo Lucia "
        "Nicolò Noemi Pietro Greta Fabio Ilaria Caterina"
    ),
    "fr": (
        "Gabriel Louise Raphaël Jade Arthur Ambre Louis Léa Jules Chloé Adam Manon Maël Inès "
        "Lucas Camille Hugo Zoé Lina Théo Juliette Antoine Élodie Mathis Margaux Baptiste "
        "Océane Clément Mathilde Étienne Céline Guillaume Amélie Julien Aurélie Nicolas "
        "Émilie Olivier Nathalie François Sylvie Benoît Brigitte Rémi Capucine Gaspard Agathe "
        "Timothée Clémence Yves"
    ),
    "hu": (
        "Bence Máté Levente Dominik Balázs Jázmin Dávid Boglárka Ádám Lili Márton Réka Gergő "
        "Eszter Zsolt Katalin László Erzsébet István Ilona Zoltán Judit Tamás Zsófia Péter "
        "Éva Gábor Krisztina Attila Orsolya Csaba Noémi Botond Dorina Ferenc Ágnes Sándor "
        "Piroska Imre Mária Tibor Csilla Gyula Emese Kristóf Virág Kinga Barnabás Enikő "
        "Zsuzsa"
    ),
}

FIRST_NAMES: dict[str, tuple[str, ...]] = {
    language: tuple(names.split()) for language, names in _NAMES.items()
}
