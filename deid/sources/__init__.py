"""Documents in: LER CoNLL, bundled decisions, saved reviews, file formats, paragraphs, text
elements and offset-keeping edits; params.yaml and the errors a user can fix."""
