"""Word knowledge: what German words are, independent of any rule, model or pipeline.

The bottom layer of ``deid`` (``tests/code/test_layering.py``): it imports the standard
library, third-party packages, :mod:`deid.schema`, :mod:`deid.sources.io` and itself only.

* :mod:`~deid.words.lexicon`: Wiktionary's noun, name and place forms;
* :mod:`~deid.words.public`: capitalized words the training decisions print in clear text;
* :mod:`~deid.words.vocabulary`: lowercase words and article nouns of the training corpus;
* :mod:`~deid.words.gazetteer`: readers of the bundled name, place and street lists;
* :mod:`~deid.words.ordinary`: ordinary word or known name, from all of the above;
* :mod:`~deid.words.vocab`: street suffixes, legal forms, court abbreviations, name shapes;
* :mod:`~deid.words.shape_cues` and :mod:`~deid.words.shapes`: the frozen cue lists and the
  word shapes behind the model's input features (:mod:`deid.anonymizer.features`).
* :mod:`~deid.words.roles`: the role a name's context gives it (a lawyer, an authority's
  seat), which the anonymization profiles decide on;
* :mod:`~deid.words.gazetteer`'s ``big_cities``: the policy's big cities (court seats and
  cities of 100,000 inhabitants), with their sources.

The builders that regenerate the bundled lists from a corpus live above, in
:mod:`deid.training.word_lists`, since only the corpus knows which documents are reserved.
"""
