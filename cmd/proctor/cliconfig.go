package main

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/proctorhq/proctor"
	"github.com/proctorhq/proctor/config"
)

// loadConfig reads a --config file (JSON or YAML: judges, embedder) and
// returns the options that inject them. An empty path means no config.
func loadConfig(path string) ([]proctor.Option, error) {
	c, err := loadCLIConfig(path)
	if err != nil {
		return nil, err
	}
	return c.Options(), nil
}

// loadCLIConfig reads and checks a --config file, with errors that name
// the flag.
func loadCLIConfig(path string) (*config.Config, error) {
	c, err := config.Load(path)
	var pe *fs.PathError
	switch {
	case errors.As(err, &pe):
		return nil, fmt.Errorf("proctor: --config: %w", err)
	case err != nil:
		return nil, fmt.Errorf("proctor: --config %w", err)
	}
	return c, nil
}
