# ui/text: target_sources(t2n_ui PRIVATE ...) and qt_add_resources(t2n_ui ...) here.
