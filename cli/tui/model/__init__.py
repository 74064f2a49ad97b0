"""What the screens draw from and keep, with no drawing of their own: the table as one
seat sees it (:class:`~.view.TableView`), the clocks, the display's pace, the matches
already played, luck against play, and what a resume brings back."""
