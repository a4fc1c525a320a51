"""Name elements that novel surrogates are composed from (``deid.rewrite.surrogates.novel``).

Ordinary German words and old name elements, not names: a surname is a stem and a head
("Wolken" + "hammer"), a place a stem and a place head ("Birk" + "ingen"), a given name two
Germanic name elements ("Ort" + "wig"). Most compositions are real names or words; the
filter in ``deid.rewrite.surrogates.novel`` throws those away, so only the combinations no list,
lexicon or training text knows remain. Chosen by how German names are built, never by
looking at a test set or at model errors. Every initial letter a court writes ("C.",
"Q.", "Sch.", "St.") has stems.
"""

from __future__ import annotations

# Nature, trade and landscape words that German surnames and place names are built on.
STEMS: tuple[str, ...] = (
    "Acker", "Ahorn", "Amsel", "Anger", "Asch", "Auer",
    "Binsen", "Birk", "Bram", "Brand", "Brunn", "Buchen", "Bühl", "Bären",
    "Conz", "Cramm", "Creutz", "Cölln", "Curt",
    "Dachs", "Distel", "Dorn", "Donner", "Drossel", "Dürr",
    "Eck", "Eich", "Eisen", "Erlen", "Eschen", "Elb",
    "Falken", "Farn", "Fels", "Fichten", "Finken", "Frost",
    "Ginster", "Glocken", "Gold", "Graben", "Gries", "Grün",
    "Hagel", "Hasel", "Hecken", "Heide", "Holder", "Hollen", "Hopfen",
    "Iber", "Igel", "Ilm", "Isel",
    "Joch", "Jung", "Jauch",
    "Kalk", "Kessel", "Kiesel", "Kirsch", "Kohl", "Kranich", "Kupfer",
    "Laub", "Lehm", "Lerchen", "Linden", "Löwen", "Lärchen",
    "Marder", "Meisen", "Mistel", "Molken", "Moos", "Mühl",
    "Nagel", "Nebel", "Nessel", "Nuss",
    "Ochsen", "Ofen", "Ohm", "Otter",
    "Pappel", "Pfeffer", "Pflug", "Pilz", "Prell",
    "Quast", "Quell", "Quitten", "Quader",
    "Raben", "Reiher", "Ried", "Rohr", "Rosen", "Rüben",
    "Salz", "Sand", "Schilf", "Schlehen", "Schnee", "Schwalben", "Silber", "Sommer", "Specht",
    "Sperl", "Stein", "Stock", "Sturm", "Stechen", "Star",
    "Tann", "Tauben", "Teich", "Torf", "Trost", "Tuch",
    "Uhl", "Ulmen", "Ufer", "Unger",
    "Veil", "Vogel", "Vorder", "Voll",
    "Wachtel", "Wald", "Weiden", "Wiesel", "Winter", "Wolken",
    "Ysen", "Yber",
    "Zaun", "Zedern", "Zeisig", "Zinn", "Zirben", "Zwiebel",
)  # fmt: skip

# Occupational and topographic surname heads ("-huber", "-hammer", "-leitner").
SURNAME_HEADS: tuple[str, ...] = (
    "bacher", "bauer", "berger", "bichler", "binder", "böck", "brunner", "dreher", "eder",
    "egger", "felder", "grabner", "gruber", "hammer", "hauser", "hofer", "huber", "inger",
    "kötter", "lechner", "leitner", "maier", "mann", "mayr", "meier", "meister", "moser",
    "müller", "reiter", "rieder", "schläger", "schmid", "steiner", "stetter", "thaler",
    "wanger", "weber", "winkler", "wirth",
)  # fmt: skip

# Short heads for one-syllable stems ("Brand" + "le", "Torf" + "ke"): not every surname is a
# long compound.
SHORT_HEADS: tuple[str, ...] = ("le", "el", "er", "ner", "ke", "ert", "ling")

# Old personal-name elements that place names begin with ("Adels-", "Otten-").
PLACE_STEMS: tuple[str, ...] = (
    "Adels", "Alber", "Bern", "Dieter", "Eber", "Ecken", "Engel", "Gunz", "Hilt", "Ilsen",
    "Kalten", "Lauter", "Liebers", "Otten", "Pfaffen", "Reichen", "Rotten", "Uffen",
    "Walders", "Wolfers", "Zell",
)  # fmt: skip

# Place-name heads ("-ingen", "-hausen", "-dorf", "-weiler").
PLACE_HEADS: tuple[str, ...] = (
    "ach", "au", "bach", "beck", "berg", "born", "brunn", "burg", "büttel", "dorf", "feld",
    "furt", "grün", "hagen", "hausen", "heim", "hofen", "ingen", "kirchen", "leben", "loh",
    "reuth", "roda", "rode", "stadt", "stedt", "stetten", "walde", "wang", "weiler", "zell",
)  # fmt: skip

# First elements of Germanic two-part given names ("Ort-", "Hild-", "Sieg-").
GIVEN_STEMS: tuple[str, ...] = (
    "Adal", "Alb", "Ans", "Bald", "Bern", "Brun", "Cun", "Dank", "Diet", "Eber", "Eck", "Engel",
    "Erk", "Fried", "Ger", "Gis", "Gode", "Gund", "Hart", "Hed", "Hild", "Hug", "Ing", "Irm",
    "Isen", "Jut", "Kuni", "Lant", "Lieb", "Lud", "Mein", "Not", "Ort", "Os", "Pil", "Rad",
    "Rein", "Sieg", "Tank", "Ul", "Volk", "Wal", "Wend", "Wern", "Wig", "Wil", "Win", "Wolf",
)  # fmt: skip

# Second elements by gender: "-bert", "-hard" for men, "-hild", "-trud" for women.
GIVEN_HEADS: dict[str, tuple[str, ...]] = {
    "m": (
        "bald", "bert", "brand", "fried", "gar", "ger", "hard", "helm", "her", "mar", "mund",
        "rad", "rich", "wald", "ward", "win", "wolf",
    ),
    "f": (
        "burg", "gard", "gund", "heid", "hild", "hilde", "lind", "linde", "run", "traud",
        "trud", "trude", "wina",
    ),
}  # fmt: skip

# Street words of each written form: glued ("…straße"), spaced ("… Straße"), hyphenated.
STREET_HEADS: tuple[str, ...] = ("straße", "weg", "gasse", "allee", "ring", "platz", "steig")
